package io.github.idempotency.web.servlet;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

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

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Operations with accept-after: a request whose work outlasts it is answered 202 Accepted with the
 * link of a status resource, its work goes on under its lease, and its response is stored when the
 * work ends; retries get the same 202 and never start a second run, then the stored response.
 */
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "idempotency.operations.reports.accept-after=0s",
				"idempotency.operations.reports.lease=1s", "idempotency.operations.summaries.accept-after=10s",
				"idempotency.accepted.retry-after=3s" })
class AcceptedRequestsWebTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webaccepted");

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
	void aRequestWhoseWorkOutlastsAcceptAfterIsAccepted202WithTheLinkOfItsStatus() throws Exception {
		String value = unique();
		this.gate.close();
		HttpResponse<byte[]> accepted = this.http.post("/reports").key("k-" + value).json(json(value)).send();
		assertThat(accepted.statusCode()).isEqualTo(202);
		String link = accepted.headers().firstValue("Location").orElseThrow();
		assertThat(link).startsWith("/idempotency/operations/").doesNotContain("k-" + value);
		assertThat(accepted.headers().firstValue("Retry-After")).hasValue("3");
		assertThat(Http.text(accepted)).contains("\"status\":\"running\"").contains("\"operation\":\"reports\"");
		assertThat(this.gate.awaitEntered()).isTrue();
		HttpResponse<byte[]> running = this.http.get(link).send();
		assertThat(running.statusCode()).isEqualTo(200);
		assertThat(Http.text(running)).contains("\"status\":\"running\"");
		assertThat(running.headers().firstValue("Retry-After")).hasValue("3");
	}

	@Test
	void retriesWhileTheWorkRunsGetTheSame202AndNeverStartASecondRun() throws Exception {
		String value = unique();
		this.gate.close();
		HttpResponse<byte[]> first = this.http.post("/reports").key("k-" + value).json(json(value)).send();
		assertThat(this.gate.awaitEntered()).isTrue();
		for (int i = 0; i < 3; i++) {
			HttpResponse<byte[]> retry = this.http.post("/reports").key("k-" + value).json(json(value)).send();
			assertThat(retry.statusCode()).isEqualTo(202);
			assertThat(retry.headers().firstValue("Location")).isEqualTo(first.headers().firstValue("Location"));
		}
		this.gate.open();
		String link = first.headers().firstValue("Location").orElseThrow();
		HttpResponse<byte[]> done = awaitDone(link);
		assertThat(done.statusCode()).isEqualTo(201);
		assertThat(done.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(Http.text(done)).contains("\"thread\":\"idempotency-accepted-");
		HttpResponse<byte[]> replay = this.http.post("/reports").key("k-" + value).json(json(value)).send();
		assertThat(replay.statusCode()).isEqualTo(201);
		assertThat(replay.body()).isEqualTo(done.body());
		assertThat(replay.headers().firstValue("Location")).isEqualTo(done.headers().firstValue("Location"));
		assertThat(effects("reports", value)).isEqualTo(1);
	}

	@Test
	void theLeaseOfAnAcceptedRequestIsKeptWhileItsWorkRunsLongerThanIt() throws Exception {
		String value = unique();
		this.gate.close();
		HttpResponse<byte[]> first = this.http.post("/reports").key("k-" + value).json(json(value)).send();
		assertThat(this.gate.awaitEntered()).isTrue();
		// The lease is 1s: for three leases, retries find the work running and none takes it over.
		await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() -> {
			HttpResponse<byte[]> retry = this.http.post("/reports").key("k-" + value).json(json(value)).send();
			return retry.statusCode() == 202 && Http.text(this.http.get(link(first)).send()).contains("running")
					&& attempts("k-" + value) == 1;
		});
		this.gate.open();
		assertThat(awaitDone(link(first)).statusCode()).isEqualTo(201);
		assertThat(attempts("k-" + value)).isEqualTo(1);
		assertThat(effects("reports", value)).isEqualTo(1);
	}

	private static String link(HttpResponse<byte[]> accepted) {
		return accepted.headers().firstValue("Location").orElseThrow();
	}

	@Test
	void aRequestWhoseWorkEndsWithinAcceptAfterIsAnsweredWithItsResponse() {
		String value = unique();
		HttpResponse<byte[]> response = this.http.post("/summaries").key("k-" + value).json(json(value)).send();
		assertThat(response.statusCode()).isEqualTo(201);
		assertThat(response.headers().firstValue("Location")).hasValueSatisfying((location) -> assertThat(location)
			.startsWith("/summaries/"));
		assertThat(response.headers().firstValue("X-Request-Trace")).isPresent();
		HttpResponse<byte[]> replay = this.http.post("/summaries").key("k-" + value).json(json(value)).send();
		assertThat(replay.body()).isEqualTo(response.body());
		assertThat(effects("summaries", value)).isEqualTo(1);
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
		String link = accepted.headers().firstValue("Location").orElseThrow();
		assertThat(this.http.get(link).tenant("acme").send().statusCode()).isEqualTo(200);
		HttpResponse<byte[]> other = this.http.get(link).tenant("globex").send();
		assertThat(other.statusCode()).isEqualTo(404);
		assertThat(other.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(Http.text(other)).contains("urn:problem-type:idempotency:operation-not-found");
		this.gate.open();
		assertThat(awaitDone(link, "acme").statusCode()).isEqualTo(201);
		assertThat(this.http.get(link).tenant("globex").send().statusCode()).isEqualTo(404);
	}

	@Test
	void aWorkThatFailsTransientlyReleasesItsKeyAndARetryRunsItAgain() throws Exception {
		String value = unique();
		this.gate.close();
		this.gate.failNext(1);
		HttpResponse<byte[]> accepted = this.http.post("/reports").key("k-" + value).json(json(value)).send();
		String link = accepted.headers().firstValue("Location").orElseThrow();
		assertThat(this.gate.awaitEntered()).isTrue();
		this.gate.open();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> Http.text(this.http.get(link).send()).contains("\"status\":\"failed\""));
		HttpResponse<byte[]> retry = this.http.post("/reports").key("k-" + value).json(json(value)).send();
		assertThat(retry.statusCode()).isEqualTo(202);
		assertThat(awaitDone(link).statusCode()).isEqualTo(201);
		assertThat(effects("reports", value)).isEqualTo(1);
	}

	@Test
	void aWorkThatEndsWithAFinalRefusalStoresItForTheStatusAndTheRetries() throws Exception {
		String key = "k-" + unique();
		this.gate.close();
		HttpResponse<byte[]> accepted = this.http.post("/reports").key(key).json(json("refuse")).send();
		String link = accepted.headers().firstValue("Location").orElseThrow();
		assertThat(this.gate.awaitEntered()).isTrue();
		this.gate.open();
		HttpResponse<byte[]> done = awaitDone(link);
		assertThat(done.statusCode()).isEqualTo(422);
		assertThat(done.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		HttpResponse<byte[]> retry = this.http.post("/reports").key(key).json(json("refuse")).send();
		assertThat(retry.statusCode()).isEqualTo(422);
		assertThat(retry.body()).isEqualTo(done.body());
	}

	@Test
	void aLinkThatNamesNoAcceptedOperationIsNotFound() {
		assertThat(this.http.get("/idempotency/operations/not-a-link").send().statusCode()).isEqualTo(404);
		assertThat(this.http.get("/idempotency/operations/" + java.util.Base64.getUrlEncoder()
			.withoutPadding()
			.encodeToString("waiting\nk-1".getBytes(java.nio.charset.StandardCharsets.UTF_8))).send().statusCode())
			.isEqualTo(404);
	}

	private HttpResponse<byte[]> awaitDone(String link) {
		return awaitDone(link, null);
	}

	private HttpResponse<byte[]> awaitDone(String link, String tenant) {
		return await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
			Http.Request request = this.http.get(link);
			return ((tenant != null) ? request.tenant(tenant) : request).send();
		}, (response) -> response.headers().firstValue("Idempotent-Replayed").isPresent());
	}

	private int attempts(String key) {
		return this.jdbc.queryForObject("SELECT attempts FROM idempotency_record WHERE idempotency_key = ?",
				Integer.class, key);
	}

	private int effects(String endpoint, String value) {
		return this.jdbc.queryForObject("SELECT COUNT(*) FROM effect WHERE endpoint = ? AND detail = ?",
				Integer.class, endpoint, value);
	}

	private static String unique() {
		return UUID.randomUUID().toString();
	}

	private static String json(String value) {
		return "{\"value\":\"" + value + "\"}";
	}

}
