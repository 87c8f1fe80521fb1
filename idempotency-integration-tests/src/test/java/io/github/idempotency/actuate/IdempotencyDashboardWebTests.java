package io.github.idempotency.actuate;

import java.net.http.HttpResponse;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.idempotency.web.servlet.WebTestApplication;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operator dashboard page over real HTTP: an Actuator endpoint like the others, so it is
 * served on the management port under the management base path and nowhere else; and the
 * {@code idempotency} endpoint it reads, which adds what this instance's meters counted.
 */
@DirtiesContext
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "management.endpoints.web.base-path=/ops",
				"management.endpoints.web.exposure.include=idempotency,idempotencydashboard",
				"idempotency.dashboard.enabled=true" })
class IdempotencyDashboardWebTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("dashboardweb");

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

	@LocalManagementPort
	int managementPort;

	@Test
	void thePageIsServedAsHtmlOnTheManagementPortUnderTheManagementBasePathOnly() {
		HttpResponse<byte[]> page = new Http(this.managementPort).get("/ops/idempotencydashboard")
			.header("Accept", "text/html")
			.send();
		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(
				(contentType) -> assertThat(contentType).startsWith("text/html").containsIgnoringCase("utf-8"));
		assertThat(Http.text(page)).contains("<title>Idempotency dashboard</title>")
			.contains("const ENDPOINT = 'idempotency';")
			.doesNotContain("<script src")
			.doesNotContain("<link");
		Http application = new Http(this.port);
		assertThat(application.get("/ops/idempotencydashboard").send().statusCode()).isEqualTo(404);
		assertThat(application.get("/actuator/idempotencydashboard").send().statusCode()).isEqualTo(404);
	}

	@Test
	void theIdempotencyEndpointBesideThePageAddsWhatTheMetersOfThisInstanceCounted() {
		Http management = new Http(this.managementPort);
		JsonNode before = activity(management).path(EFFECTS);
		String key = UUID.randomUUID().toString();
		Http application = new Http(this.port);
		assertThat(application.post("/effects").key(key).json("{\"value\":\"dashboard\"}").send().statusCode())
			.isEqualTo(201);
		assertThat(application.post("/effects").key(key).json("{\"value\":\"dashboard\"}").send().statusCode())
			.isEqualTo(201);
		assertThat(application.post("/effects").key(key).json("{\"value\":\"other\"}").send().statusCode())
			.isEqualTo(422);
		JsonNode after = activity(management).path(EFFECTS);
		assertThat(increase(after, before, "executed")).isOne();
		assertThat(increase(after, before, "replayed")).isOne();
		assertThat(increase(after, before, "mismatch")).isOne();
		assertThat(increase(after, before, "conflict")).isZero();
		assertThat(after.path("inFlight").asLong()).isZero();
		assertThat(after.path("takeovers").isNumber()).isTrue();
		JsonNode narrowed = read(management.get("/ops/idempotency?operation=" + "POST%20/effects").send());
		assertThat(narrowed.path("activity").path("operations").propertyNames()).containsExactly(EFFECTS);
	}

	private static JsonNode activity(Http management) {
		HttpResponse<byte[]> response = management.get("/ops/idempotency").send();
		assertThat(response.statusCode()).isEqualTo(200);
		return read(response).path("activity").path("operations");
	}

	private static long increase(JsonNode after, JsonNode before, String outcome) {
		return after.path("outcomes").path(outcome).asLong() - before.path("outcomes").path(outcome).asLong();
	}

	private static JsonNode read(HttpResponse<byte[]> response) {
		return json.readTree(response.body());
	}

}
