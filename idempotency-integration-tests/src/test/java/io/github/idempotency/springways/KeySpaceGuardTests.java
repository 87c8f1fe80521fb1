package io.github.idempotency.springways;

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

import io.github.idempotency.springways.SpringWaysApplication.Effects;
import io.github.idempotency.springways.SpringWaysApplication.Gate;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A tenant past its limit of new keys, or of keys in flight, is answered {@code 429} with nothing
 * stored and nothing run, while the keys it already used are still answered and other tenants
 * are not held back.
 */
@SpringBootTest(classes = SpringWaysApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.flyway.locations=classpath:db/webtest", "idempotency.limits.new-keys=3",
				"idempotency.limits.interval=1h", "idempotency.limits.in-flight=2" })
class KeySpaceGuardTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("keyspace");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		registry.add("spring.datasource.url", database::url);
		registry.add("spring.datasource.username", database::username);
		registry.add("spring.datasource.password", database::password);
	}

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	Effects effects;

	@Autowired
	Gate gate;

	@AfterEach
	void openGate() {
		this.gate.open();
	}

	@Test
	void newKeyPastTheTenantsLimitIsRefusedWith429AndNothingIsStoredOrRun() {
		String tenant = unique();
		for (int i = 0; i < 3; i++) {
			assertThat(post("/logged", tenant, unique()).statusCode()).isEqualTo(201);
		}
		String refused = unique();
		HttpResponse<byte[]> answer = post("/logged", tenant, refused);
		assertThat(answer.statusCode()).isEqualTo(429);
		assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(Http.text(answer)).contains("urn:problem-type:idempotency:rate-limited");
		assertThat(answer.headers().firstValue("Retry-After").map(Long::parseLong)).hasValueSatisfying(
				(seconds) -> assertThat(seconds).isBetween(1L, Duration.ofHours(1).toSeconds()));
		assertThat(records(refused)).isZero();
		assertThat(this.effects.count("logged", refused)).isZero();
	}

	@Test
	void tenantAtItsLimitIsStillAnsweredTheKeysItAlreadyUsed() {
		String tenant = unique();
		String first = unique();
		HttpResponse<byte[]> original = post("/logged", tenant, first);
		post("/logged", tenant, unique());
		post("/logged", tenant, unique());
		assertThat(post("/logged", tenant, unique()).statusCode()).isEqualTo(429);
		HttpResponse<byte[]> replay = post("/logged", tenant, first);
		assertThat(replay.statusCode()).isEqualTo(201);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(original.body());
		HttpResponse<byte[]> reused = new Http(this.port).post("/logged").tenant(tenant).key(first)
			.json("{\"value\":\"another request\"}").send();
		assertThat(reused.statusCode()).isEqualTo(422);
	}

	@Test
	void oneTenantAtItsLimitHoldsNoOtherTenantBack() {
		String busy = unique();
		for (int i = 0; i < 3; i++) {
			post("/logged", busy, unique());
		}
		assertThat(post("/logged", busy, unique()).statusCode()).isEqualTo(429);
		assertThat(post("/logged", unique(), unique()).statusCode()).isEqualTo(201);
	}

	@Test
	void newKeyPastTheTenantsKeysInFlightIsRefusedUntilOneFinishes() throws Exception {
		String tenant = unique();
		this.gate.close();
		CompletableFuture<HttpResponse<byte[]>> first = new Http(this.port).post("/gated").tenant(tenant)
			.key(unique()).json(json("first")).sendAsync();
		CompletableFuture<HttpResponse<byte[]>> second = new Http(this.port).post("/gated").tenant(tenant)
			.key(unique()).json(json("second")).sendAsync();
		await().atMost(Duration.ofSeconds(20)).until(() -> this.gate.entered() == 2);
		String third = unique();
		HttpResponse<byte[]> refused = post("/gated", tenant, third);
		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(records(third)).isZero();
		assertThat(this.effects.count("gated", third)).isZero();
		this.gate.open();
		assertThat(first.get().statusCode()).isEqualTo(200);
		assertThat(second.get().statusCode()).isEqualTo(200);
		// The refused key took no place in the interval's three new keys.
		assertThat(post("/gated", tenant, third).statusCode()).isEqualTo(200);
		assertThat(this.effects.count("gated", third)).isOne();
	}

	private HttpResponse<byte[]> post(String path, String tenant, String key) {
		return new Http(this.port).post(path).tenant(tenant).key(key).json(json(key)).send();
	}

	private long records(String key) {
		return this.jdbc.queryForObject(
				"SELECT count(*) FROM idempotency_record WHERE idempotency_key = ? AND status <> 'RELEASED'",
				Long.class, key);
	}

	private static String unique() {
		return UUID.randomUUID().toString();
	}

	private static String json(String value) {
		return "{\"value\":\"" + value + "\"}";
	}

}
