package io.github.idempotency.sample.operations;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.Outcome;
import io.github.idempotency.KeyHashes;
import io.github.idempotency.jdbc.IdempotencyPurger;
import io.github.idempotency.jdbc.IdempotencyPurger.PurgeResult;
import io.github.idempotency.sample.payments.PaymentController;
import io.github.idempotency.sample.support.Carts;
import io.github.idempotency.sample.support.FlowsDatabase;
import io.github.idempotency.sample.support.PostgresDatasource;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static io.github.idempotency.sample.support.Payments.body;
import static io.github.idempotency.sample.support.Payments.customer;
import static io.github.idempotency.sample.support.Payments.json;
import static io.github.idempotency.sample.support.Payments.newKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample's operations surface over HTTP on PostgreSQL: the request meters of every outcome,
 * the {@code idempotency} endpoint and health contribution, and the purge that archives payments
 * (SPEC 8).
 */
@DirtiesContext
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "sample.crash-windows.hold=4s", "idempotency.purge.cron=-" })
class OperationsSurfaceTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final String PAYMENTS = PaymentController.CREATE_OPERATION;

	/**
	 * Customers whose payments the sample holds for {@code sample.crash-windows.hold} after the
	 * claim, before the gateway is called, so that a request stays in progress.
	 */
	private static final String HELD = "hold-before-charge-";

	static final PostgresTestDatabase database = PostgresTestDatabase.create("operations");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		PostgresDatasource.register(registry, database);
		registry.add("spring.datasource.hikari.maximum-pool-size", () -> 4);
	}

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	IdempotencyPurger purger;

	private Http http;

	private FlowsDatabase db;

	@BeforeEach
	void setUp() {
		this.http = new Http(this.port);
		this.db = new FlowsDatabase(this.jdbc);
		this.db.clear();
		this.jdbc.execute("TRUNCATE TABLE idempotency_record_archive");
	}

	@Test
	void everyOutcomeOfPaymentRequestsIsCountedExactlyOnceInTheRequestsMeter() throws Exception {
		Map<Outcome, Double> before = outcomes();
		double takeoversBefore = metric("idempotency.takeovers", "COUNT", "operation:" + PAYMENTS);
		double executionsBefore = metric("idempotency.executions", "COUNT", "operation:" + PAYMENTS);
		String key = newKey();
		String request = body(customer("c-"), 2999, "USD");
		assertThat(pay(key, request).statusCode()).isEqualTo(201);
		assertThat(pay(key, request).headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(pay(key, body(customer("c-"), 2999, "USD")).statusCode()).isEqualTo(422);
		assertThat(this.http.post("/payments").json(request).send().statusCode()).isEqualTo(400);
		String flakyKey = newKey();
		String flaky = body(customer("flaky-"), 1500, "EUR");
		assertThat(pay(flakyKey, flaky).statusCode()).isEqualTo(503);
		assertThat(pay(flakyKey, flaky).statusCode()).isEqualTo(201);
		String heldKey = newKey();
		String held = body(customer(HELD), 4200, "USD");
		CompletableFuture<HttpResponse<byte[]>> first = payAsync(heldKey, held);
		awaitInProgress(heldKey);
		assertThat(metric("idempotency.executions.active", "VALUE", "operation:" + PAYMENTS)).isEqualTo(1);
		HttpResponse<byte[]> duplicate = pay(heldKey, held);
		assertThat(first).isNotDone();
		assertThat(duplicate.statusCode()).isEqualTo(409);
		assertThat(problemType(duplicate)).isEqualTo("urn:problem-type:idempotency:in-progress");
		assertThat(first.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS).statusCode()).isEqualTo(201);
		String stalledKey = newKey();
		String stalledRequest = body(customer(HELD), 990, "GBP");
		CompletableFuture<HttpResponse<byte[]>> stalled = payAsync(stalledKey, stalledRequest);
		awaitInProgress(stalledKey);
		expireLease(stalledKey);
		HttpResponse<byte[]> takeover = pay(stalledKey, stalledRequest);
		assertThat(takeover.statusCode()).isEqualTo(201);
		HttpResponse<byte[]> lost = stalled.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		assertThat(lost.statusCode()).isEqualTo(409);
		assertThat(problemType(lost)).isEqualTo("urn:problem-type:idempotency:lease-lost");
		Map<Outcome, Double> after = outcomes();
		Map<Outcome, Long> increments = new EnumMap<>(Outcome.class);
		after.forEach((outcome, count) -> increments.put(outcome, Math.round(count - before.get(outcome))));
		// Every other outcome, such as one of a limit the sample does not set, counted nothing.
		Map<Outcome, Long> expected = new EnumMap<>(Outcome.class);
		for (Outcome outcome : Outcome.values()) {
			expected.put(outcome, 0L);
		}
		expected.putAll(Map.of(Outcome.EXECUTED, 4L, Outcome.REPLAYED, 1L, Outcome.CONFLICT, 1L, Outcome.MISMATCH, 1L,
				Outcome.MISSING_KEY, 1L, Outcome.RELEASED, 1L, Outcome.TAKEN_OVER, 1L));
		assertThat(increments).isEqualTo(expected);
		assertThat(metric("idempotency.takeovers", "COUNT", "operation:" + PAYMENTS) - takeoversBefore).isEqualTo(1);
		assertThat(metric("idempotency.executions", "COUNT", "operation:" + PAYMENTS) - executionsBefore)
			.isEqualTo(6);
		assertThat(metric("idempotency.executions.active", "VALUE", "operation:" + PAYMENTS)).isZero();
	}

	@Test
	void theEndpointCountsRecordsByOperationAndDescribesOneWithoutItsStoredResponse() {
		String key = newKey();
		String customer = customer("c-");
		HttpResponse<byte[]> created = this.http.post("/payments")
			.key(key)
			.tenant("acme")
			.json(body(customer, 2999, "USD"))
			.send();
		assertThat(created.statusCode()).isEqualTo(201);
		JsonNode payment = json(created);
		Carts.createMandate(this.http);
		JsonNode counts = getJson("/actuator/idempotency");
		assertThat(counts.path("completed").asLong()).isEqualTo(2);
		assertThat(counts.path("inProgress").asLong()).isZero();
		assertThat(counts.path("stuck").asLong()).isZero();
		assertThat(counts.path("operations").path(PAYMENTS).path("completed").asLong()).isOne();
		assertThat(counts.path("operations").path("create-cart-mandate").path("completed").asLong()).isOne();
		assertThat(getJson("/actuator/idempotency?operation=" + PAYMENTS).path("operations").propertyNames())
			.containsExactly(PAYMENTS);
		HttpResponse<byte[]> described = this.http.get(recordPath("acme", key)).send();
		assertThat(described.statusCode()).isEqualTo(200);
		assertThat(Http.text(described)).doesNotContain(key)
			.doesNotContain(customer)
			.doesNotContain(payment.get("gatewayChargeId").asString())
			.doesNotContain("/payments/" + payment.get("id").asLong());
		JsonNode record = json(described);
		assertThat(record.propertyNames()).doesNotContain("id", "responseBody", "body", "responseHeaders");
		assertThat(record.path("tenant").asString()).isEqualTo("acme");
		assertThat(record.path("operation").asString()).isEqualTo(PAYMENTS);
		assertThat(record.path("keyHash").asString()).isEqualTo(KeyHashes.shortHash(key));
		assertThat(record.path("status").asString()).isEqualTo("COMPLETED");
		assertThat(record.path("fingerprint").asString()).matches("[0-9a-f]{64}");
		assertThat(record.path("responseStatus").asInt()).isEqualTo(201);
		assertThat(record.path("responseBodyBytes").asLong()).isEqualTo(created.body().length);
		assertThat(record.path("expired").asBoolean()).isFalse();
		assertThat(this.http.get(recordPath("default", key)).send().statusCode()).isEqualTo(404);
	}

	@Test
	void anOperatorReleasesAStuckPaymentKeyOverHttpSoThatTheRetryRunsAgain() throws Exception {
		String key = newKey();
		String request = body(customer(HELD), 2999, "USD");
		CompletableFuture<HttpResponse<byte[]>> stuck = payAsync(key, request);
		awaitInProgress(key);
		assertThat(idempotencyHealth().path("details").path("stuck").asLong()).isZero();
		JsonNode refused = release(key, false);
		assertThat(refused.path("released").asBoolean()).isFalse();
		assertThat(refused.path("outcome").asString()).isEqualTo("LEASE_ACTIVE");
		expireLease(key);
		JsonNode health = idempotencyHealth();
		assertThat(health.path("status").asString()).isEqualTo("UP");
		assertThat(health.path("details").path("stuck").asLong()).isOne();
		assertThat(getJson("/actuator/idempotency").path("operations").path(PAYMENTS).path("stuck").asLong()).isOne();
		JsonNode described = getJson(recordPath("default", key));
		assertThat(described.path("status").asString()).isEqualTo("IN_PROGRESS");
		assertThat(described.path("leaseExpired").asBoolean()).isTrue();
		JsonNode released = release(key, false);
		assertThat(released.path("released").asBoolean()).isTrue();
		assertThat(released.path("outcome").asString()).isEqualTo("RELEASED");
		assertThat(released.path("keyHash").asString()).isEqualTo(KeyHashes.shortHash(key));
		assertThat(this.http.get(recordPath("default", key)).send().statusCode()).isEqualTo(404);
		assertThat(idempotencyHealth().path("details").path("stuck").asLong()).isZero();
		HttpResponse<byte[]> lost = stuck.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		assertThat(lost.statusCode()).isEqualTo(409);
		assertThat(problemType(lost)).isEqualTo("urn:problem-type:idempotency:lease-lost");
		HttpResponse<byte[]> retry = pay(key, request);
		assertThat(retry.statusCode()).isEqualTo(201);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(this.db.payments()).isOne();
		assertThat(this.db.charges(json(retry).get("customerId").asString())).isOne();
		assertThat(this.db.record(PAYMENTS, key)).containsEntry("status", "COMPLETED");
		assertThat(release(key, false).path("outcome").asString()).isEqualTo("COMPLETED");
		HttpResponse<byte[]> replay = pay(key, request);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(retry.body());
	}

	@Test
	void anOperatorReleasesAKeyUnderALiveLeaseOnlyWithForce() throws Exception {
		String key = newKey();
		String request = body(customer(HELD), 2999, "USD");
		CompletableFuture<HttpResponse<byte[]>> running = payAsync(key, request);
		awaitInProgress(key);
		assertThat(release(key, false).path("outcome").asString()).isEqualTo("LEASE_ACTIVE");
		assertThat(this.db.record(PAYMENTS, key)).containsEntry("status", "IN_PROGRESS");
		JsonNode forced = release(key, true);
		assertThat(forced.path("released").asBoolean()).isTrue();
		assertThat(forced.path("outcome").asString()).isEqualTo("RELEASED");
		assertThat(this.db.record(PAYMENTS, key)).isNull();
		HttpResponse<byte[]> lost = running.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		assertThat(lost.statusCode()).isEqualTo(409);
		assertThat(problemType(lost)).isEqualTo("urn:problem-type:idempotency:lease-lost");
		assertThat(release(newKey(), false).path("outcome").asString()).isEqualTo("NOT_FOUND");
	}

	@Test
	void thePurgeArchivesAnExpiredPaymentWithItsResponseAndDeletesIt() {
		String key = newKey();
		HttpResponse<byte[]> created = pay(key, body(customer("c-"), 2999, "USD"));
		assertThat(created.statusCode()).isEqualTo(201);
		Carts.createMandate(this.http);
		double archivedBefore = metric("idempotency.purge.archived", "COUNT");
		double expiredBefore = metric("idempotency.purge.deleted", "COUNT", "reason:expired");
		assertThat(this.jdbc.update("UPDATE idempotency_record SET expires_at = now() - interval '1 minute'"))
			.isEqualTo(2);
		PurgeResult result = this.purger.purge();
		assertThat(result.expired()).isEqualTo(2);
		assertThat(result.archived()).isOne();
		assertThat(result.stuck()).isZero();
		assertThat(this.jdbc.queryForObject("SELECT count(*) FROM idempotency_record", Long.class)).isZero();
		List<Map<String, Object>> archived = this.jdbc.queryForList("SELECT * FROM idempotency_record_archive");
		assertThat(archived).hasSize(1);
		Map<String, Object> payment = archived.get(0);
		assertThat(payment).containsEntry("tenant_id", "default")
			.containsEntry("operation", PAYMENTS)
			.containsEntry("idempotency_key", key)
			.containsEntry("status", "COMPLETED")
			.containsEntry("response_status", 201);
		assertThat((byte[]) payment.get("response_body")).isEqualTo(created.body());
		assertThat((String) payment.get("response_headers"))
			.contains("/payments/" + json(created).get("id").asLong());
		assertThat(payment.get("archived_at")).isNotNull();
		assertThat(metric("idempotency.purge.archived", "COUNT") - archivedBefore).isEqualTo(1);
		assertThat(metric("idempotency.purge.deleted", "COUNT", "reason:expired") - expiredBefore).isEqualTo(2);
	}

	@Test
	void logLinesOfAPaymentRequestCarryItsOperationAndTheHashOfItsKey(CapturedOutput output) throws Exception {
		String key = newKey();
		CompletableFuture<HttpResponse<byte[]>> held = payAsync(key, body(customer(HELD), 2999, "USD"));
		assertThat(held.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS).statusCode()).isEqualTo(201);
		String keyHash = KeyHashes.shortHash(key);
		assertThat(output.getOut().lines().filter((line) -> line.contains("Crash window") && line.contains(keyHash)))
			.singleElement()
			.asString()
			.contains("[" + PAYMENTS + "  " + keyHash + "]")
			.doesNotContain(key);
	}

	private HttpResponse<byte[]> pay(String key, String request) {
		return this.http.post("/payments").key(key).json(request).send();
	}

	private CompletableFuture<HttpResponse<byte[]>> payAsync(String key, String request) {
		return this.http.post("/payments").key(key).json(request).sendAsync();
	}

	private void awaitInProgress(String key) {
		await().atMost(TIMEOUT).until(() -> {
			Map<String, Object> record = this.db.record(PAYMENTS, key);
			return record != null && "IN_PROGRESS".equals(record.get("status"));
		});
	}

	private void expireLease(String key) {
		assertThat(this.jdbc.update("UPDATE idempotency_record SET locked_until = now() - interval '1 second' "
				+ "WHERE operation = ? AND idempotency_key = ? AND status = 'IN_PROGRESS'", PAYMENTS, key))
			.isOne();
	}

	private JsonNode release(String key, boolean force) {
		HttpResponse<byte[]> response = this.http.post("/actuator/idempotency")
			.json("{\"tenant\":\"default\",\"operation\":\"" + PAYMENTS + "\",\"key\":\"" + key + "\",\"force\":"
					+ force + "}")
			.send();
		assertThat(response.statusCode()).isEqualTo(200);
		return json(response);
	}

	private JsonNode idempotencyHealth() {
		HttpResponse<byte[]> response = this.http.get("/actuator/health").send();
		return json(response).path("components").path("idempotency");
	}

	private Map<Outcome, Double> outcomes() {
		Map<Outcome, Double> counts = new EnumMap<>(Outcome.class);
		for (Outcome outcome : Outcome.values()) {
			counts.put(outcome,
					metric("idempotency.requests", "COUNT", "operation:" + PAYMENTS, "outcome:" + outcome.tag()));
		}
		return counts;
	}

	/**
	 * Read one statistic of a meter from {@code /actuator/metrics}.
	 */
	private double metric(String name, String statistic, String... tags) {
		StringBuilder path = new StringBuilder("/actuator/metrics/").append(name);
		for (int i = 0; i < tags.length; i++) {
			path.append((i == 0) ? '?' : '&').append("tag=").append(encode(tags[i]));
		}
		JsonNode meter = getJson(path.toString());
		for (JsonNode measurement : meter.path("measurements")) {
			if (statistic.equals(measurement.path("statistic").asString())) {
				return measurement.path("value").asDouble();
			}
		}
		throw new AssertionError("No " + statistic + " in " + meter);
	}

	private JsonNode getJson(String path) {
		HttpResponse<byte[]> response = this.http.get(path).send();
		assertThat(response.statusCode()).as(path).isEqualTo(200);
		return json(response);
	}

	private static String recordPath(String tenant, String key) {
		return "/actuator/idempotency?tenant=" + tenant + "&operation=" + PAYMENTS + "&key=" + encode(key);
	}

	private static String problemType(HttpResponse<byte[]> response) {
		return json(response).get("type").asString();
	}

	private static String encode(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8);
	}

}
