package io.github.idempotency.web.reactive;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
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
 * streamed responses, cancellation, a storm of one key across two instances, and BlockHound
 * watching the threads that must not block.
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
		try (Socket client = send("/slow", key, json(value), "X-Delay-Millis: 30000")) {
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
		try (Socket client = send("/slow", key, json(value), "X-Delay-Millis: 0")) {
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

	@Test
	void aStormOfOneKeyOnTwoInstancesHasOneEffect() throws Exception {
		try (ConfigurableApplicationContext second = new SpringApplicationBuilder(ReactiveWebTestApplication.class)
			.properties("server.port=0", "spring.main.web-application-type=reactive",
					"spring.datasource.url=" + database.url(), "spring.datasource.username=" + database.username(),
					"spring.datasource.password=" + database.password(),
					"spring.flyway.locations=classpath:db/webtest")
			.run()) {
			Gate secondGate = second.getBean(Gate.class);
			Http secondHttp = new Http(((WebServerApplicationContext) second).getWebServer().getPort());
			String value = unique();
			this.gate.close();
			secondGate.close();
			List<CompletableFuture<HttpResponse<byte[]>>> responses = new ArrayList<>();
			for (int i = 0; i < 64; i++) {
				Http instance = (i % 2 == 0) ? this.http : secondHttp;
				responses.add(instance.post("/waiting").key("storm-" + value).json(json(value)).sendAsync());
			}
			await().atMost(Duration.ofSeconds(60))
				.until(() -> responses.stream().filter(CompletableFuture::isDone).count() == 63);
			this.gate.open();
			secondGate.open();
			List<Integer> statuses = responses.stream().map((response) -> response.join().statusCode()).toList();
			assertThat(statuses).filteredOn((status) -> status == 200).hasSize(1);
			assertThat(statuses).filteredOn((status) -> status == 409).hasSize(63);
			assertThat(effects("waiting", value)).isEqualTo(1);
			HttpResponse<byte[]> replay = secondHttp.post("/waiting").key("storm-" + value).json(json(value)).send();
			assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
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

	private Socket send(String path, String key, String body, String header) throws IOException {
		Socket socket = new Socket("127.0.0.1", this.port);
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		String request = "POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
				+ "Idempotency-Key: " + key + "\r\n" + header + "\r\nContent-Length: " + bytes.length + "\r\n\r\n";
		OutputStream out = socket.getOutputStream();
		out.write(request.getBytes(StandardCharsets.US_ASCII));
		out.write(bytes);
		out.flush();
		return socket;
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
