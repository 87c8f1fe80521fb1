package io.github.idempotency.web.servlet;

import io.github.idempotency.jdbc.JdbcTestSupport;
import org.springframework.context.annotation.DependsOn;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.jdbc.JdbcIdempotencyStore;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A LEASED operation with {@code wait} set: a duplicate of a request in progress waits for its
 * result instead of answering 409.
 */
@SpringBootTest(classes = { WebTestApplication.class, WaitingDuplicatesWebTests.CountingStoreConfiguration.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "idempotency.operations.waiting.wait=20s")
class WaitingDuplicatesWebTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webwait");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		WebTestSupport.register(registry, database);
	}

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	WebTestApplication.Gate gate;

	@Autowired
	ClaimCountingStore store;

	@AfterEach
	void openGate() {
		this.gate.open();
	}

	@Test
	void duplicateWaitsForTheFirstRequestAndReplaysItsResponse() throws Exception {
		String value = UUID.randomUUID().toString();
		Http http = new Http(this.port);
		this.gate.close();
		CompletableFuture<HttpResponse<byte[]>> first = CompletableFuture
			.supplyAsync(() -> http.post("/waiting").key(value).json(json(value)).send());
		assertThat(this.gate.awaitEntered()).isTrue();
		CompletableFuture<HttpResponse<byte[]>> duplicate = CompletableFuture
			.supplyAsync(() -> http.post("/waiting").key(value).json(json(value)).send());
		await().atMost(Duration.ofSeconds(10)).until(() -> this.store.claims(value) >= 2);
		assertThat(duplicate).isNotDone();
		this.gate.open();
		HttpResponse<byte[]> original = first.get();
		HttpResponse<byte[]> replay = duplicate.get();
		assertThat(original.statusCode()).isEqualTo(200);
		assertThat(replay.statusCode()).isEqualTo(200);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(original.body());
		assertThat(effects(value)).isEqualTo(1);
	}

	@Test
	void waitingDuplicateRunsItselfWhenTheFirstRequestIsReleased() throws Exception {
		String value = UUID.randomUUID().toString();
		Http http = new Http(this.port);
		this.gate.close();
		this.gate.failNext(1);
		CompletableFuture<HttpResponse<byte[]>> first = CompletableFuture
			.supplyAsync(() -> http.post("/waiting").key(value).json(json(value)).send());
		assertThat(this.gate.awaitEntered()).isTrue();
		CompletableFuture<HttpResponse<byte[]>> duplicate = CompletableFuture
			.supplyAsync(() -> http.post("/waiting").key(value).json(json(value)).send());
		await().atMost(Duration.ofSeconds(10)).until(() -> this.store.claims(value) >= 2);
		this.gate.open();
		assertThat(first.get().statusCode()).isEqualTo(503);
		HttpResponse<byte[]> second = duplicate.get();
		assertThat(second.statusCode()).isEqualTo(200);
		assertThat(second.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(effects(value)).isEqualTo(1);
	}

	private long effects(String value) {
		return this.jdbc.queryForObject("SELECT count(*) FROM effect WHERE endpoint = 'waiting' AND detail = ?",
				Long.class, value);
	}

	private static String json(String value) {
		return "{\"value\":\"" + value + "\"}";
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class CountingStoreConfiguration {

		@Bean
		@DependsOn("idempotencySchemaInitializer")
		ClaimCountingStore claimCountingStore(DataSource dataSource) {
			return new ClaimCountingStore(JdbcTestSupport.postgresStore(dataSource));
		}

	}

}
