package io.github.idempotency.web.reactive;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
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
import io.github.idempotency.KeyHashes;
import io.github.idempotency.Outcome;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;
import io.github.idempotency.web.reactive.ReactiveWebTestApplication.Cancellations;
import io.github.idempotency.web.reactive.ReactiveWebTestApplication.EffectController;
import io.github.idempotency.web.reactive.ReactiveWebTestApplication.Outcomes;
import io.github.idempotency.web.servlet.WebTestApplication.Gate;
import io.github.idempotency.web.servlet.WebTestSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the reactive entry point adds to the HTTP contract, on Reactor Netty and PostgreSQL:
 * streamed responses, cancellation, keep-alive connections, a storm of one key across two
 * instances, and BlockHound watching the threads that must not block.
 */
@SpringBootTest(classes = ReactiveWebTestApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "idempotency.operations.slow.lease=1s" })
class WebFluxBehaviourTests {

	static {
		ReactiveTests.installBlockHound();
	}

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webfluxbehaviour");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		WebTestSupport.register(registry, database);
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

	@Autowired
	TestObservationRegistry observations;

	Http http;

	@BeforeEach
	void setUp() {
		this.http = new Http(this.port);
	}

	@AfterEach
	void letGo() {
		this.gate.open();
		((HeldClaimStore) this.store).letGo();
	}

	@Test
	void collectsAFluxStoresItAndReplaysItByteForByte() {
		String value = unique();
		HttpResponse<byte[]> first = this.http.post("/lines").key("k-" + value).json(json(value)).send();
		HttpResponse<byte[]> replay = this.http.post("/lines").key("k-" + value).json(json(value)).send();
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(Http.text(first)).contains("line-1 of").contains("line-2 of");
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(effects("lines", value)).isEqualTo(1);
	}

	@Test
	void aClientGoneWhileTheWorkRunsLeavesTheKeyToItsLeaseAndARetryTakesOverOnce() throws Exception {
		String value = unique();
		String key = "k-" + value;
		int started = this.controller.slowStarted();
		try (Socket client = ReactiveRequests.send(this.port, "/slow", key, json(value), "X-Delay-Millis: 30000")) {
			await().atMost(Duration.ofSeconds(30)).until(() -> this.controller.slowStarted() > started);
		}
		await().atMost(Duration.ofSeconds(30)).until(() -> this.outcomes.contains("slow", Outcome.ABANDONED));
		assertThat(record("slow", key)).extracting(IdempotencyRecord::status).isEqualTo(RecordStatus.IN_PROGRESS);
		assertThat(this.http.post("/slow").key(key).json(json(value)).send().statusCode()).isEqualTo(409);
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> this.http.post("/slow").key(key).json(json(value)).send().statusCode() == 200);
		HttpResponse<byte[]> replay = this.http.post("/slow").key(key).json(json(value)).send();
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(record("slow", key).attempts()).isEqualTo(2);
		assertThat(effects("slow", value)).isEqualTo(1);
	}

	@Test
	void aClientGoneBeforeTheWorkStartedReleasesTheKeyAndNothingRuns() throws Exception {
		String value = unique();
		String key = "held-" + value;
		HeldClaimStore held = (HeldClaimStore) this.store;
		held.hold();
		int cancelled = this.cancellations.cancelled();
		int started = this.controller.slowStarted();
		try (Socket client = ReactiveRequests.send(this.port, "/slow", key, json(value), "X-Delay-Millis: 0")) {
			assertThat(held.awaitHeldClaim()).isTrue();
		}
		await().atMost(Duration.ofSeconds(30)).until(() -> this.cancellations.cancelled() > cancelled);
		held.letGo();
		await().atMost(Duration.ofSeconds(30)).until(() -> this.outcomes.contains("slow", Outcome.RELEASED));
		assertThat(record("slow", key)).extracting(IdempotencyRecord::status).isEqualTo(RecordStatus.RELEASED);
		assertThat(this.controller.slowStarted()).isEqualTo(started);
		assertThat(effects("slow", value)).isZero();
		HttpResponse<byte[]> retry = this.http.post("/slow").key(key).json(json(value)).send();
		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(effects("slow", value)).isEqualTo(1);
	}

	/**
	 * A client that sends its next request on a keep-alive connection before the answer of a
	 * guarded one (answered off the event loop) has ended gets both answers, and the connection
	 * reads on. Reactor Netty 1.3.7 stopped reading it then (reactor-netty#4347), and the
	 * connection's next request waited until its client gave up.
	 */
	@Test
	void aKeepAliveConnectionReadsOnAfterARequestThatArrivedWhileAGuardedOneWasAnswered() throws Exception {
		for (int attempt = 0; attempt < 5; attempt++) {
			String value = unique();
			byte[] body = json(value).getBytes(StandardCharsets.UTF_8);
			try (Socket client = new Socket("127.0.0.1", this.port)) {
				client.setSoTimeout(10_000);
				OutputStream out = client.getOutputStream();
				out.write(("POST /effects HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
						+ "Idempotency-Key: k-" + value + "\r\nContent-Length: " + body.length + "\r\n\r\n"
						+ new String(body, StandardCharsets.UTF_8) + "GET /nothing-here HTTP/1.1\r\nHost: localhost\r\n\r\n")
					.getBytes(StandardCharsets.UTF_8));
				InputStream in = client.getInputStream();
				assertThat(ReactiveRequests.readResponse(in)).startsWith("HTTP/1.1 201");
				assertThat(ReactiveRequests.readResponse(in)).startsWith("HTTP/1.1 404");
				out.write("GET /nothing-here HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.UTF_8));
				assertThat(ReactiveRequests.readResponse(in)).startsWith("HTTP/1.1 404");
			}
			assertThat(effects("effects", value)).isOne();
		}
	}

	@Test
	void aStormOfOneKeyOnTwoInstancesHasOneEffect() throws Exception {
		try (ConfigurableApplicationContext second = new SpringApplicationBuilder(ReactiveWebTestApplication.class)
			.properties("server.port=0", "spring.main.web-application-type=reactive",
					"spring.datasource.url=" + database.url(), "spring.datasource.username=" + database.username(),
					"spring.datasource.password=" + database.password(),
					"spring.flyway.locations=classpath:db/webtest")
			.run()) {
			String value = unique();
			ReactiveRequests.stormOfOneKey(this.http, this.gate, second, value, () -> effects("waiting", value));
		}
	}

	@Test
	void theIdempotencyObservationIsAChildOfTheRequestsObservation() {
		String key = "k-" + unique();
		assertThat(this.http.post("/lines").key(key).json(json(key)).send().statusCode()).isEqualTo(200);
		String keyHash = KeyHashes.shortHash(key);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> TestObservationRegistryAssert.assertThat(this.observations)
				.hasHandledContextsThatSatisfy((contexts) -> assertThat(contexts).anySatisfy((context) -> {
					assertThat(context.getName()).isEqualTo("idempotency.request");
					assertThat(context.getHighCardinalityKeyValue("idempotency.key.hash").getValue())
						.isEqualTo(keyHash);
					assertThat(context.getParentObservation()).isNotNull();
					assertThat(context.getParentObservation().getContextView().getName())
						.isEqualTo("http.server.requests");
				})));
	}

	@Test
	void blockHoundWatchesTheThreadsThatMustNotBlock() {
		HttpResponse<byte[]> response = this.http.post("/event-loop").key("k-" + unique()).json("{}").send();
		assertThat(response.statusCode()).isEqualTo(500);
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
