package io.github.idempotency.web.servlet;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.TenantResolver;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * ATOMIC operations: the claim, the handler's writes and the completion commit in one
 * transaction, and concurrent duplicates wait for it on the database.
 */
@SpringBootTest(classes = { WebTestApplication.class, AtomicModeWebTests.CountingTenants.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.datasource.hikari.maximum-pool-size=4",
				"spring.datasource.hikari.connection-timeout=2000" })
class AtomicModeWebTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webatomic");

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
	CountingTenants tenants;

	@Autowired
	HikariDataSource pool;

	@AfterEach
	void openGate() {
		this.gate.open();
	}

	@Test
	void commitsTheEffectWithItsStoredResponse() {
		String value = unique();
		Http http = new Http(this.port);
		HttpResponse<byte[]> first = http.post("/atomic").key(value).json(json(value)).send();
		HttpResponse<byte[]> replay = http.post("/atomic").key(value).json(json(value)).send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(effects(value)).isEqualTo(1);
		assertThat(status(value)).isEqualTo("COMPLETED");
	}

	@Test
	void rollsBackTheEffectsOfAFinalErrorAndStillReplaysTheError() {
		String value = unique();
		Http http = new Http(this.port);
		HttpResponse<byte[]> first = http.post("/atomic?outcome=final").key(value).json(json(value)).send();
		HttpResponse<byte[]> replay = http.post("/atomic?outcome=final").key(value).json(json(value)).send();
		assertThat(first.statusCode()).isEqualTo(422);
		assertThat(replay.statusCode()).isEqualTo(422);
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(effects(value)).isZero();
		assertThat(status(value)).isEqualTo("COMPLETED");
	}

	@Test
	void rollsBackClaimAndEffectsOfATransientFailure() {
		String value = unique();
		Http http = new Http(this.port);
		this.gate.failNext(1);
		HttpResponse<byte[]> failed = http.post("/atomic").key(value).json(json(value)).send();
		assertThat(failed.statusCode()).isEqualTo(503);
		assertThat(effects(value)).isZero();
		assertThat(records(value)).isZero();
		HttpResponse<byte[]> retry = http.post("/atomic").key(value).json(json(value)).send();
		assertThat(retry.statusCode()).isEqualTo(201);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(effects(value)).isEqualTo(1);
	}

	@Test
	void concurrentDuplicatesWaitInMemoryForTheFirstCommitAndReplayIt() throws Exception {
		String value = unique();
		String tenant = "storm-" + value;
		Http http = new Http(this.port);
		int duplicates = 8;
		ExecutorService clients = Executors.newFixedThreadPool(duplicates + 1);
		try {
			this.gate.close();
			CompletableFuture<HttpResponse<byte[]>> first = CompletableFuture.supplyAsync(() -> http.post("/atomic")
				.key(value)
				.header("X-Tenant-Id", tenant)
				.json(json(value))
				.send(), clients);
			assertThat(this.gate.awaitEntered()).isTrue();
			List<CompletableFuture<HttpResponse<byte[]>>> others = new ArrayList<>();
			for (int i = 0; i < duplicates; i++) {
				others.add(CompletableFuture.supplyAsync(() -> http.post("/atomic")
					.key(value)
					.header("X-Tenant-Id", tenant)
					.json(json(value))
					.send(), clients));
			}
			await().atMost(Duration.ofSeconds(20)).until(() -> this.tenants.resolved(tenant) >= duplicates + 1);
			await().during(Duration.ofMillis(500))
				.atMost(Duration.ofSeconds(5))
				.until(() -> backendsWaitingOnLocks() == 0 && this.pool.getHikariPoolMXBean().getActiveConnections() <= 1);
			this.gate.open();
			HttpResponse<byte[]> original = first.get();
			assertThat(original.statusCode()).isEqualTo(201);
			for (CompletableFuture<HttpResponse<byte[]>> other : others) {
				HttpResponse<byte[]> replay = other.get();
				assertThat(replay.statusCode()).isEqualTo(201);
				assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
				assertThat(replay.body()).isEqualTo(original.body());
			}
			assertThat(effects(value)).isEqualTo(1);
		}
		finally {
			clients.shutdownNow();
		}
	}

	@Test
	void waitingDuplicateRunsItselfWhenTheFirstRollsBack() throws Exception {
		String value = unique();
		String tenant = "rollback-" + value;
		Http http = new Http(this.port);
		this.gate.close();
		this.gate.failNext(1);
		CompletableFuture<HttpResponse<byte[]>> first = CompletableFuture.supplyAsync(
				() -> http.post("/atomic").key(value).header("X-Tenant-Id", tenant).json(json(value)).send());
		assertThat(this.gate.awaitEntered()).isTrue();
		CompletableFuture<HttpResponse<byte[]>> duplicate = CompletableFuture.supplyAsync(
				() -> http.post("/atomic").key(value).header("X-Tenant-Id", tenant).json(json(value)).send());
		await().atMost(Duration.ofSeconds(20)).until(() -> this.tenants.resolved(tenant) >= 2);
		this.gate.open();
		assertThat(first.get().statusCode()).isEqualTo(503);
		HttpResponse<byte[]> second = duplicate.get();
		assertThat(second.statusCode()).isEqualTo(201);
		assertThat(second.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(effects(value)).isEqualTo(1);
	}

	private long backendsWaitingOnLocks() {
		return this.jdbc.queryForObject("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
				+ "AND wait_event_type = 'Lock'", Long.class);
	}

	private long effects(String value) {
		return this.jdbc.queryForObject("SELECT count(*) FROM effect WHERE endpoint = 'atomic' AND detail = ?",
				Long.class, value);
	}

	private long records(String key) {
		return this.jdbc.queryForObject(
				"SELECT count(*) FROM idempotency_record WHERE idempotency_key = ? AND status <> 'RELEASED'",
				Long.class, key);
	}

	private String status(String key) {
		return this.jdbc.queryForObject("SELECT status FROM idempotency_record WHERE idempotency_key = ?",
				String.class, key);
	}

	private static String json(String value) {
		return "{\"value\":\"" + value + "\"}";
	}

	private static String unique() {
		return UUID.randomUUID().toString();
	}

	/**
	 * Counts, per tenant, the requests that reached the idempotency handler, so that a test knows
	 * its duplicates have arrived.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class CountingTenants {

		private final Map<String, AtomicInteger> resolved = new ConcurrentHashMap<>();

		@Bean
		TenantResolver countingTenantResolver() {
			DefaultTenantResolver resolver = new DefaultTenantResolver(() -> null, "X-Tenant-Id", "default");
			return () -> {
				String tenant = resolver.resolveTenant();
				this.resolved.computeIfAbsent(tenant, (name) -> new AtomicInteger()).incrementAndGet();
				return tenant;
			};
		}

		int resolved(String tenant) {
			AtomicInteger count = this.resolved.get(tenant);
			return (count != null) ? count.get() : 0;
		}

	}

}
