package io.github.idempotency.web.servlet;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Leases of LEASED operations: extended while a request runs, taken over once they run out, and
 * fenced so that a late completion changes nothing.
 */
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "idempotency.operations.waiting.lease=900ms" })
class LeaseWebTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("weblease");

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

	@AfterEach
	void openGate() {
		this.gate.open();
	}

	@Test
	void heartbeatKeepsASlowButLiveRequestFromBeingTakenOver() throws Exception {
		String value = UUID.randomUUID().toString();
		Http http = new Http(this.port);
		this.gate.close();
		CompletableFuture<HttpResponse<byte[]>> slow = CompletableFuture
			.supplyAsync(() -> http.post("/waiting").key(value).json(json(value)).send());
		assertThat(this.gate.awaitEntered()).isTrue();
		await().atMost(Duration.ofSeconds(15))
			.until(() -> this.jdbc.queryForObject(
					"SELECT locked_until > created_at + interval '2 seconds' FROM idempotency_record "
							+ "WHERE idempotency_key = ?",
					Boolean.class, value));
		HttpResponse<byte[]> duplicate = http.post("/waiting").key(value).json(json(value)).send();
		this.gate.open();
		assertThat(duplicate.statusCode()).isEqualTo(409);
		assertThat(slow.get().statusCode()).isEqualTo(200);
		assertThat(effects("waiting", value)).isEqualTo(1);
	}

	@Test
	void retryTakesOverARunOutLeaseAndTheOldOwnersLateCompletionChangesNothing() throws Exception {
		String value = UUID.randomUUID().toString();
		Http http = new Http(this.port);
		this.gate.close();
		CompletableFuture<HttpResponse<byte[]>> stale = CompletableFuture
			.supplyAsync(() -> http.post("/effects").key(value).json(json(value)).send());
		assertThat(this.gate.awaitEntered()).isTrue();
		String staleToken = token(value);
		this.jdbc.update("UPDATE idempotency_record SET locked_until = now() - interval '1 second' "
				+ "WHERE idempotency_key = ?", value);
		CompletableFuture<HttpResponse<byte[]>> retry = CompletableFuture
			.supplyAsync(() -> http.post("/effects").key(value).json(json(value)).send());
		assertThat(this.gate.awaitEntered(2)).isTrue();
		assertThat(token(value)).isNotEqualTo(staleToken);
		this.gate.open();
		HttpResponse<byte[]> late = stale.get();
		HttpResponse<byte[]> winner = retry.get();
		assertThat(winner.statusCode()).isEqualTo(201);
		assertThat(late.statusCode()).isEqualTo(409);
		assertThat(Http.text(late)).contains("urn:problem-type:idempotency:lease-lost");
		HttpResponse<byte[]> replay = http.post("/effects").key(value).json(json(value)).send();
		assertThat(replay.body()).isEqualTo(winner.body());
		assertThat(Http.text(replay)).doesNotContain(staleToken);
	}

	private String token(String key) {
		return this.jdbc.queryForObject("SELECT fencing_token::text FROM idempotency_record WHERE idempotency_key = ?",
				String.class, key);
	}

	private long effects(String endpoint, String value) {
		return this.jdbc.queryForObject("SELECT count(*) FROM effect WHERE endpoint = ? AND detail = ?", Long.class,
				endpoint, value);
	}

	private static String json(String value) {
		return "{\"value\":\"" + value + "\"}";
	}

}
