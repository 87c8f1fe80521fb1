package io.github.idempotency.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.idempotency.docs.snippets.DocsApplication;
import io.github.idempotency.docs.snippets.beans.Ledger;
import io.github.idempotency.docs.snippets.beans.LedgerEntry;
import io.github.idempotency.docs.snippets.beans.PaymentSucceeded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * The snippets' code run as the application they make up, on an embedded H2 database: the README's
 * controller answers a retry with its stored response, the ledger posts one entry per event, the
 * problem customizer and the Actuator security do what the guide says, and the OpenAPI components
 * the guide gives API-first teams agree with what the starter documents.
 */
@SpringBootTest(classes = DocsApplication.class,
		properties = { "management.endpoints.web.exposure.include=health,idempotency",
				"management.health.redis.enabled=false" })
@AutoConfigureMockMvc
class DocumentedApplicationTests {

	private static final JsonMapper json = JsonMapper.shared();

	private static final String PAYMENT = "{\"customerId\": \"c-1\", \"amount\": 2999, \"currency\": \"USD\"}";

	@Autowired
	MockMvc mvc;

	@Autowired
	Ledger ledger;

	@Test
	void theReadmesPaymentRunsOnceAndItsRetryGetsTheSameResponseMarkedReplayed() throws Exception {
		String key = "0190d8a4-5b1c-7000-8000-000000000001";
		MvcResult first = pay(key);
		MvcResult retry = pay(key);

		assertThat(first.getResponse().getStatus()).isEqualTo(201);
		assertThat(first.getResponse().getHeader("Idempotent-Replayed")).isNull();
		assertThat(retry.getResponse().getStatus()).isEqualTo(201);
		assertThat(retry.getResponse().getHeader("Idempotent-Replayed")).isEqualTo("true");
		assertThat(retry.getResponse().getContentAsByteArray()).isEqualTo(first.getResponse().getContentAsByteArray());
		assertThat(json.readTree(first.getResponse().getContentAsString()).path("downstreamKey").asString())
			.endsWith(key);
	}

	@Test
	void theLedgerPostsOneEntryForTwoDeliveriesOfOneEvent() {
		int before = this.ledger.runs();
		PaymentSucceeded event = new PaymentSucceeded("p-" + System.nanoTime(), 2999);

		LedgerEntry first = this.ledger.post(event);
		LedgerEntry redelivered = this.ledger.post(event);

		assertThat(redelivered).isEqualTo(first);
		assertThat(this.ledger.runs()).isEqualTo(before + 1);
	}

	@Test
	void aRefusalCarriesTheErrorCodeOfTheProblemCustomizer() throws Exception {
		MvcResult missingKey = this.mvc
			.perform(post("/payments").contentType(MediaType.APPLICATION_JSON).content(PAYMENT))
			.andReturn();

		assertThat(missingKey.getResponse().getStatus()).isEqualTo(400);
		JsonNode problem = json.readTree(missingKey.getResponse().getContentAsString());
		assertThat(problem.path("type").asString()).isEqualTo("urn:problem-type:idempotency:missing-key");
		assertThat(problem.path("errorCode").asString()).isEqualTo("IDEMPOTENCY");
	}

	@Test
	void theActuatorSecurityLetsHealthThroughAndAsksForTheIdempotencyEndpointsRole() throws Exception {
		assertThat(this.mvc.perform(get("/actuator/health")).andReturn().getResponse().getStatus()).isEqualTo(200);
		assertThat(this.mvc.perform(get("/actuator/idempotency")).andReturn().getResponse().getStatus())
			.isEqualTo(401);
	}

	@Test
	@SuppressWarnings("unchecked")
	void theOpenApiComponentsOfTheGuideAgreeWithWhatTheStarterDocuments() throws Exception {
		Map<String, Object> components = (Map<String, Object>) openApiSnippet().get("components");
		Map<String, Object> keyParameter = (Map<String, Object>) ((Map<String, Object>) components.get("parameters"))
			.get("IdempotencyKey");
		Map<String, Object> replayed = (Map<String, Object>) ((Map<String, Object>) components.get("headers"))
			.get("IdempotentReplayed");
		Map<String, Object> problem = (Map<String, Object>) ((Map<String, Object>) components.get("responses"))
			.get("IdempotencyProblem");

		JsonNode operation = json
			.readTree(this.mvc.perform(get("/v3/api-docs")).andReturn().getResponse().getContentAsString())
			.path("paths")
			.path("/payments")
			.path("post");
		JsonNode documented = null;
		for (JsonNode parameter : operation.path("parameters")) {
			if (parameter.path("name").asString().equals(keyParameter.get("name"))) {
				documented = parameter;
			}
		}
		assertThat(documented).as("the key parameter the starter documents").isNotNull();
		assertThat(documented.path("in").asString()).isEqualTo(keyParameter.get("in"));
		assertThat(documented.path("required").asBoolean()).isEqualTo(keyParameter.get("required"));
		Map<String, Object> schema = (Map<String, Object>) keyParameter.get("schema");
		assertThat(documented.path("schema").path("type").asString()).isEqualTo(schema.get("type"));
		assertThat(documented.path("schema").path("maxLength").asInt()).isEqualTo(schema.get("maxLength"));
		assertThat(operation.path("responses").propertyNames()).anySatisfy((status) -> assertThat(status).startsWith("2"));
		for (String status : operation.path("responses").propertyNames()) {
			if (status.startsWith("2")) {
				assertThat(operation.path("responses").path(status).path("headers").path("Idempotent-Replayed")
					.path("schema").path("type").asString()).as("the replay marker of the %s response", status)
					.isEqualTo(((Map<String, Object>) replayed.get("schema")).get("type"));
			}
		}
		for (String status : new String[] { "400", "409", "422" }) {
			assertThat(operation.path("responses").path(status).path("content").propertyNames())
				.as("media types of the %s response", status)
				.containsExactlyElementsOf(((Map<String, Object>) problem.get("content")).keySet());
		}
	}

	private MvcResult pay(String key) throws Exception {
		return this.mvc
			.perform(post("/payments").contentType(MediaType.APPLICATION_JSON)
				.header("Idempotency-Key", key)
				.content(PAYMENT))
			.andReturn();
	}

	private static Map<String, Object> openApiSnippet() throws IOException {
		return new Yaml().load(Files.readString(
				Documentation.module().resolve("src/test/resources/snippets/openapi/idempotency-components.yml")));
	}

}
