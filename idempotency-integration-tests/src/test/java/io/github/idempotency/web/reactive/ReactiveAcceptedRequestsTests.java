package io.github.idempotency.web.reactive;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;
import io.github.idempotency.web.servlet.WebTestApplication.Gate;
import io.github.idempotency.web.servlet.WebTestSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.awaitility.Awaitility.await;

/**
 * Operations with accept-after on Spring WebFlux, on Reactor Netty and PostgreSQL, with BlockHound
 * watching: a request whose work outlasts it is answered 202 Accepted with the link of a status
 * resource, its work goes on under its lease after the request ended, and its response is stored
 * when the work ends; retries get the same 202 and never start a second run.
 */
@SpringBootTest(classes = ReactiveWebTestApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "idempotency.operations.reports.accept-after=200ms",
				"idempotency.operations.reports.lease=2s", "idempotency.accepted.retry-after=3s",
				"idempotency.operations.logged.accept-after=0s" })
class ReactiveAcceptedRequestsTests {

	static {
		ReactiveTests.installBlockHound();
	}

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webfluxaccepted");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		WebTestSupport.register(registry, database);
	}

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	Gate gate;

	Http http;

	@BeforeEach
	void setUp() {
		this.http = new Http(this.port);
	}

	@AfterEach
	void openGate() {
		this.gate.open();
	}

	@Test
	void aRequestWhoseWorkOutlastsAcceptAfterIsAccepted202AndItsWorkGoesOnAfterIt() throws Exception {
		String value = unique();
		this.gate.close();
		HttpResponse<byte[]> accepted = this.http.post("/reports").key("k-" + value).json(json(value)).send();
		assertThat(accepted.statusCode()).isEqualTo(202);
		String link = link(accepted);
		assertThat(link).startsWith("/idempotency/operations/").doesNotContain("k-" + value);
		assertThat(accepted.headers().firstValue("Retry-After")).hasValue("3");
		assertThat(Http.text(accepted)).contains("\"status\":\"running\"").contains("\"operation\":\"reports\"");
		assertThat(this.gate.awaitEntered()).isTrue();
		HttpResponse<byte[]> running = this.http.get(link).send();
		assertThat(running.statusCode()).isEqualTo(200);
		assertThat(Http.text(running)).contains("\"status\":\"running\"");
		this.gate.open();
		HttpResponse<byte[]> done = awaitDone(link, null);
		assertThat(done.statusCode()).isEqualTo(201);
		assertThat(done.headers().firstValue("Location")).hasValueSatisfying((location) -> assertThat(location)
			.startsWith("/reports/"));
		assertThat(effects(value)).isOne();
	}

	@Test
	void retriesWhileTheWorkRunsGetTheSame202AndNeverStartASecondRunThenTheStoredResponse() throws Exception {
		String value = unique();
		this.gate.close();
		HttpResponse<byte[]> first = this.http.post("/reports").key("k-" + value).json(json(value)).send();
		assertThat(this.gate.awaitEntered()).isTrue();
		// The lease is 2s: for two and a half leases, retries find the work running and none takes it over.
		await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(15)).until(() -> {
			HttpResponse<byte[]> retry = this.http.post("/reports").key("k-" + value).json(json(value)).send();
			return retry.statusCode() == 202 && link(retry).equals(link(first)) && attempts("k-" + value) == 1;
		});
		this.gate.open();
		HttpResponse<byte[]> done = awaitDone(link(first), null);
		HttpResponse<byte[]> replay = this.http.post("/reports").key("k-" + value).json(json(value)).send();
		assertThat(replay.statusCode()).isEqualTo(201);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(done.body());
		assertThat(effects(value)).isOne();
		assertThat(attempts("k-" + value)).isOne();
	}

	@Test
	void aRequestWhoseWorkEndsWithinAcceptAfterIsAnsweredWithItsResponse() {
		String value = unique();
		HttpResponse<byte[]> response = this.http.post("/reports").key("k-" + value).json(json(value)).send();
		assertThat(response.statusCode()).isEqualTo(201);
		assertThat(response.headers().firstValue("Idempotent-Replayed")).isEmpty();
		HttpResponse<byte[]> replay = this.http.post("/reports").key("k-" + value).json(json(value)).send();
		assertThat(replay.body()).isEqualTo(response.body());
		assertThat(effects(value)).isOne();
	}

	@Test
	void anotherTenantsRequestForTheStatusIsNotFound() throws Exception {
		String value = unique();
		this.gate.close();
		HttpResponse<byte[]> accepted = this.http.post("/reports")
			.key("k-" + value)
			.tenant("acme")
			.json(json(value))
			.send();
		String link = link(accepted);
		assertThat(this.http.get(link).tenant("acme").send().statusCode()).isEqualTo(200);
		HttpResponse<byte[]> other = this.http.get(link).tenant("globex").send();
		assertThat(other.statusCode()).isEqualTo(404);
		assertThat(Http.text(other)).contains("urn:problem-type:idempotency:operation-not-found");
		this.gate.open();
		assertThat(awaitDone(link, "acme").statusCode()).isEqualTo(201);
		assertThat(this.http.get(link).tenant("globex").send().statusCode()).isEqualTo(404);
	}

	@Test
	void aWorkThatFailsTransientlyAfterItsRequestWasAcceptedReleasesItsKeyAndARetryRunsItAgain() throws Exception {
		String value = unique();
		this.gate.close();
		this.gate.failNext(1);
		HttpResponse<byte[]> accepted = this.http.post("/reports").key("k-" + value).json(json(value)).send();
		assertThat(accepted.statusCode()).isEqualTo(202);
		assertThat(this.gate.awaitEntered()).isTrue();
		this.gate.open();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> Http.text(this.http.get(link(accepted)).send()).contains("\"status\":\"failed\""));
		this.http.post("/reports").key("k-" + value).json(json(value)).send();
		assertThat(awaitDone(link(accepted), null).statusCode()).isEqualTo(201);
		assertThat(effects(value)).isOne();
	}

	@Test
	void aWorkThatEndsWithAFinalRefusalStoresItForTheStatusAndTheRetries() throws Exception {
		String key = "k-" + unique();
		this.gate.close();
		HttpResponse<byte[]> accepted = this.http.post("/reports").key(key).json(json("refuse")).send();
		assertThat(this.gate.awaitEntered()).isTrue();
		this.gate.open();
		HttpResponse<byte[]> done = awaitDone(link(accepted), null);
		assertThat(done.statusCode()).isEqualTo(422);
		HttpResponse<byte[]> retry = this.http.post("/reports").key(key).json(json("refuse")).send();
		assertThat(retry.statusCode()).isEqualTo(422);
		assertThat(retry.body()).isEqualTo(done.body());
	}

	@Test
	void workThatEndsJustAsItsRequestIsAcceptedAnswersEveryRequestOnce() {
		// accept-after 0s and work that takes no time: the 202 and the work's own response race for
		// the answer, and whichever wins, the request ends (a request once hung here).
		for (int i = 0; i < 100; i++) {
			String value = unique();
			HttpResponse<byte[]> response = assertTimeoutPreemptively(Duration.ofSeconds(20),
					() -> this.http.post("/logged").key("k-" + value).json(json(value)).send());
			assertThat(response.statusCode()).isIn(200, 202);
			await().atMost(Duration.ofSeconds(20))
				.until(() -> this.jdbc.queryForObject(
						"SELECT count(*) FROM idempotency_record WHERE idempotency_key = ? AND status = 'COMPLETED'",
						Integer.class, "k-" + value) == 1);
		}
	}

	private HttpResponse<byte[]> awaitDone(String link, String tenant) {
		try {
			return await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
				Http.Request request = this.http.get(link);
				return ((tenant != null) ? request.tenant(tenant) : request).send();
			}, (response) -> response.headers().firstValue("Idempotent-Replayed").isPresent());
		}
		catch (ConditionTimeoutException ex) {
			throw new AssertionError("The work never stored its response; records: "
					+ this.jdbc.queryForList("SELECT idempotency_key, status, attempts, last_failure, locked_until, "
							+ "now() AS now FROM idempotency_record WHERE operation = 'reports'")
					+ "; " + Http.serverThreads(), ex);
		}
	}

	private static String link(HttpResponse<byte[]> accepted) {
		return accepted.headers().firstValue("Location").orElseThrow();
	}

	private int attempts(String key) {
		return this.jdbc.queryForObject("SELECT attempts FROM idempotency_record WHERE idempotency_key = ?",
				Integer.class, key);
	}

	private int effects(String value) {
		return this.jdbc.queryForObject("SELECT COUNT(*) FROM effect WHERE endpoint = 'reports' AND detail = ?",
				Integer.class, value);
	}

	private static String unique() {
		return UUID.randomUUID().toString();
	}

	private static String json(String value) {
		return "{\"value\":\"" + value + "\"}";
	}

}
