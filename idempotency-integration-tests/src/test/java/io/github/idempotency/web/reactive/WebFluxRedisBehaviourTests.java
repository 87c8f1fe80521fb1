package io.github.idempotency.web.reactive;

import java.net.Socket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.Outcome;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;
import io.github.idempotency.testsupport.RedisTestServer;
import io.github.idempotency.web.reactive.ReactiveWebTestApplication.Cancellations;
import io.github.idempotency.web.reactive.ReactiveWebTestApplication.EffectController;
import io.github.idempotency.web.reactive.ReactiveWebTestApplication.Outcomes;
import io.github.idempotency.web.servlet.WebTestApplication.Gate;
import io.github.idempotency.web.servlet.WebTestSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The reactive entry point on the Redis store, which it calls without a thread of its own: claims,
 * replays and settlements on no store thread, a cancellation while the claim is on its way, and a
 * storm of one key across two instances, with BlockHound watching.
 */
@SpringBootTest(classes = ReactiveWebTestApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "idempotency.store.type=redis" })
class WebFluxRedisBehaviourTests {

	static {
		ReactiveTests.installBlockHound();
	}

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webfluxredisbehaviour");

	static final String PREFIX = RedisTestServer.local().uniquePrefix("webfluxbehaviour");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		WebTestSupport.register(registry, database);
		registry.add("idempotency.redis.key-prefix", () -> PREFIX);
	}

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	IdempotencyStore store;

	@Autowired
	Gate gate;

	@Autowired
	Outcomes outcomes;

	@Autowired
	Cancellations cancellations;

	@Autowired
	EffectController controller;

	Http http;

	@BeforeEach
	void setUp() {
		this.http = new Http(this.port);
	}

	@AfterEach
	void letGo() {
		this.gate.open();
		((HeldNonBlockingClaimStore) this.store).letGo();
	}

	@Test
	void claimsReplaysAndSettlementsRunOnNoThreadOfTheStore() {
		String value = unique();
		String key = "k-" + value;
		assertThat(this.http.post("/effects").key(key).json(json(value)).send().statusCode()).isEqualTo(201);
		HttpResponse<byte[]> replay = this.http.post("/effects").key(key).json(json(value)).send();
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.http.post("/effects").key(key).json(json(value + "-other")).send().statusCode())
			.isEqualTo(422);
		assertThat(this.outcomes.contains("POST /effects", Outcome.EXECUTED)).isTrue();
		assertThat(this.outcomes.threads()).isNotEmpty()
			.noneMatch((thread) -> thread.startsWith("idempotency-store"));
		assertThat(effects("effects", value)).isEqualTo(1);
	}

	@Test
	void aClientGoneWhileItsClaimIsOnItsWayReleasesTheKeyAndNothingRuns() throws Exception {
		String value = unique();
		String key = "held-" + value;
		HeldNonBlockingClaimStore held = (HeldNonBlockingClaimStore) this.store;
		held.hold();
		int cancelled = this.cancellations.cancelled();
		int started = this.controller.slowStarted();
		try (Socket client = ReactiveRequests.send(this.port, "/slow", key, json(value))) {
			assertThat(held.awaitHeldClaim()).isTrue();
		}
		await().atMost(Duration.ofSeconds(30)).until(() -> this.cancellations.cancelled() > cancelled);
		held.letGo();
		await().atMost(Duration.ofSeconds(30)).until(() -> this.outcomes.contains("slow", Outcome.RELEASED));
		assertThat(record("slow", key)).extracting(IdempotencyRecord::status).isEqualTo(RecordStatus.RELEASED);
		assertThat(this.controller.slowStarted()).isEqualTo(started);
		assertThat(effects("slow", value)).isZero();
		assertThat(this.http.post("/slow").key(key).json(json(value)).send().statusCode()).isEqualTo(200);
		assertThat(effects("slow", value)).isEqualTo(1);
	}

	@Test
	void aStormOfOneKeyOnTwoInstancesHasOneEffect() throws Exception {
		try (ConfigurableApplicationContext second = new SpringApplicationBuilder(ReactiveWebTestApplication.class)
			.properties("server.port=0", "spring.main.web-application-type=reactive", "idempotency.store.type=redis",
					"idempotency.redis.key-prefix=" + PREFIX, "spring.datasource.url=" + database.url(),
					"spring.datasource.username=" + database.username(),
					"spring.datasource.password=" + database.password(),
					"spring.flyway.locations=classpath:db/webtest")
			.run()) {
			String value = unique();
			ReactiveRequests.stormOfOneKey(this.http, this.gate, second, value, () -> effects("waiting", value));
		}
	}

	private IdempotencyRecord record(String operation, String key) {
		return this.store.find(new IdempotencyKey("default", operation, key)).orElseThrow();
	}

	private long effects(String endpoint, String detail) {
		return this.jdbc.queryForObject("SELECT count(*) FROM effect WHERE endpoint = ? AND detail = ?", Long.class,
				endpoint, detail);
	}

	private static String json(String value) {
		return "{\"value\":\"" + value + "\"}";
	}

	private static String unique() {
		return UUID.randomUUID().toString();
	}

}
