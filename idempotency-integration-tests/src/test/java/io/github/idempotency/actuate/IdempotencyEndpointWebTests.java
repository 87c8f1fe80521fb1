package io.github.idempotency.actuate;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.idempotency.KeyHashes;
import io.github.idempotency.web.servlet.WebTestApplication;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code idempotency} Actuator endpoint and health contribution over real HTTP, on real
 * PostgreSQL.
 */
@DirtiesContext
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=health,idempotency",
				"management.endpoint.health.show-details=always" })
class IdempotencyEndpointWebTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webendpoint");

	static final String EFFECTS = "POST /effects";

	static final JsonMapper json = JsonMapper.builder().build();

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		registry.add("spring.datasource.url", database::url);
		registry.add("spring.datasource.username", database::username);
		registry.add("spring.datasource.password", database::password);
		registry.add("spring.flyway.locations", () -> "classpath:db/webtest");
		registry.add("spring.datasource.hikari.maximum-pool-size", () -> "4");
	}

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	Http http;

	@BeforeEach
	void setUp() {
		this.http = new Http(this.port);
	}

	@Test
	void countsRecordsByOperationAndStatus() {
		JsonNode before = get("/actuator/idempotency");
		effect(unique());
		effect(unique());
		stuck(unique(), "crashed");
		JsonNode after = get("/actuator/idempotency");
		assertThat(delta(after, before, "completed")).isEqualTo(2);
		assertThat(delta(after, before, "inProgress")).isEqualTo(1);
		assertThat(delta(after, before, "stuck")).isEqualTo(1);
		assertThat(after.path("completed").asLong() + after.path("inProgress").asLong()
				+ after.path("released").asLong())
			.isEqualTo(this.jdbc.queryForObject("SELECT count(*) FROM idempotency_record", Long.class));
		JsonNode one = get("/actuator/idempotency?operation=" + encode(EFFECTS));
		assertThat(one.path("operations").propertyNames()).containsExactly(EFFECTS);
	}

	@Test
	void looksUpOneRecordByTenantOperationAndKeyWithoutItsBody() {
		String key = unique();
		String value = unique();
		HttpResponse<byte[]> created = this.http.post("/effects").key(key).json("{\"value\":\"" + value + "\"}").send();
		HttpResponse<byte[]> response = this.http.get(record(key)).send();
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(Http.text(response)).doesNotContain(value).doesNotContain(key);
		JsonNode record = read(response);
		assertThat(record.path("tenant").asString()).isEqualTo("default");
		assertThat(record.path("operation").asString()).isEqualTo(EFFECTS);
		assertThat(record.path("keyHash").asString()).isEqualTo(KeyHashes.shortHash(key));
		assertThat(record.path("status").asString()).isEqualTo("COMPLETED");
		assertThat(record.path("responseStatus").asInt()).isEqualTo(201);
		assertThat(record.path("responseBodyBytes").asLong()).isEqualTo(created.body().length);
		assertThat(record.path("expired").asBoolean()).isFalse();
		assertThat(record.path("completedAt").asString()).isNotEmpty();
		assertThat(this.http.get(record(unique())).send().statusCode()).isEqualTo(404);
		assertThat(this.http.get("/actuator/idempotency?tenant=default&key=" + key).send().statusCode())
			.isEqualTo(400);
	}

	@Test
	void releasesAStuckKeySoThatARetryRunsTheOperationAgain() {
		String key = unique();
		stuck(key, "a request whose instance crashed");
		assertThat(effect(key).statusCode()).isEqualTo(422);
		JsonNode released = release(key, false);
		assertThat(released.path("released").asBoolean()).isTrue();
		assertThat(released.path("outcome").asString()).isEqualTo("RELEASED");
		assertThat(released.path("keyHash").asString()).isEqualTo(KeyHashes.shortHash(key));
		assertThat(effect(key).statusCode()).isEqualTo(201);
		assertThat(this.jdbc.queryForObject("SELECT count(*) FROM effect WHERE detail = ?", Long.class, key))
			.isEqualTo(1);
		JsonNode completed = release(key, false);
		assertThat(completed.path("released").asBoolean()).isFalse();
		assertThat(completed.path("outcome").asString()).isEqualTo("COMPLETED");
		assertThat(effect(key).statusCode()).isEqualTo(201);
		assertThat(release(unique(), false).path("outcome").asString()).isEqualTo("NOT_FOUND");
	}

	@Test
	void releasesAKeyUnderALiveLeaseOnlyWithForce() {
		String key = unique();
		this.jdbc.update("INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, status, "
				+ "request_fingerprint, fencing_token, locked_until, created_at, expires_at) VALUES ('default', ?, ?, "
				+ "'IN_PROGRESS', 'hung', ?, now() + interval '1 minute', now(), now() + interval '1 day')", EFFECTS,
				key, UUID.randomUUID());
		assertThat(release(key, false).path("outcome").asString()).isEqualTo("LEASE_ACTIVE");
		assertThat(count(key)).isEqualTo(1);
		assertThat(release(key, true).path("outcome").asString()).isEqualTo("RELEASED");
		assertThat(count(key)).isZero();
	}

	@Test
	void healthReportsTheStoreUpWithTheNumberOfStuckRecords() {
		stuck(unique(), "crashed");
		stuck(unique(), "crashed");
		JsonNode health = get("/actuator/health").path("components").path("idempotency");
		assertThat(health.path("status").asString()).isEqualTo("UP");
		assertThat(health.path("details").path("stuck").asLong()).isGreaterThanOrEqualTo(2)
			.isEqualTo(this.jdbc.queryForObject("SELECT count(*) FROM idempotency_record WHERE status = 'IN_PROGRESS' "
					+ "AND locked_until <= now()", Long.class));
	}

	private HttpResponse<byte[]> effect(String key) {
		return this.http.post("/effects").key(key).json("{\"value\":\"" + key + "\"}").send();
	}

	/**
	 * Leave a record in progress whose lease ran out, as an instance that crashed mid-request does.
	 */
	private void stuck(String key, String fingerprint) {
		this.jdbc.update("INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, status, "
				+ "request_fingerprint, fencing_token, locked_until, created_at, expires_at) VALUES ('default', ?, ?, "
				+ "'IN_PROGRESS', ?, ?, now() - interval '1 minute', now() - interval '2 minutes', "
				+ "now() + interval '1 day')", EFFECTS, key, fingerprint, UUID.randomUUID());
	}

	private long count(String key) {
		return this.jdbc.queryForObject("SELECT count(*) FROM idempotency_record WHERE idempotency_key = ?", Long.class,
				key);
	}

	private JsonNode release(String key, boolean force) {
		String body = json.writeValueAsString(java.util.Map.of("tenant", "default", "operation", EFFECTS, "key", key,
				"force", force));
		HttpResponse<byte[]> response = this.http.post("/actuator/idempotency").json(body).send();
		assertThat(response.statusCode()).isEqualTo(200);
		return read(response);
	}

	private String record(String key) {
		return "/actuator/idempotency?tenant=default&operation=" + encode(EFFECTS) + "&key=" + encode(key);
	}

	private JsonNode get(String path) {
		HttpResponse<byte[]> response = this.http.get(path).send();
		assertThat(response.statusCode()).as(path).isEqualTo(200);
		return read(response);
	}

	private static JsonNode read(HttpResponse<byte[]> response) {
		return json.readTree(response.body());
	}

	private static long delta(JsonNode after, JsonNode before, String count) {
		return after.path(count).asLong() - before.path(count).asLong();
	}

	private static String encode(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8);
	}

	private static String unique() {
		return UUID.randomUUID().toString();
	}

}
