package io.github.idempotency.web.servlet;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenAPI description that springdoc serves documents every {@code @Idempotent} operation
 * without the application writing any of it.
 */
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "idempotency.operations.reports.accept-after=2s")
class OpenApiDocumentationTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webopenapi");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		WebTestSupport.register(registry, database);
	}

	@LocalServerPort
	int port;

	@Test
	void documentsTheKeyHeaderProblemsAndReplayHeadersOfIdempotentOperations() {
		JsonNode post = apiDocs().path("paths").path("/effects").path("post");
		JsonNode key = parameter(post, "Idempotency-Key");
		assertThat(key.path("in").asString()).isEqualTo("header");
		assertThat(key.path("required").asBoolean()).isTrue();
		assertThat(key.path("schema").path("maxLength").asInt()).isEqualTo(255);
		JsonNode responses = post.path("responses");
		for (String status : new String[] { "400", "409", "413", "422" }) {
			assertThat(responses.path(status).path("content").has("application/problem+json")).as(status).isTrue();
		}
		assertThat(responses.path("409").path("headers").has("Retry-After")).isTrue();
		assertThat(responses.path("422").path("content").toString()).contains("urn:problem-type:idempotency:key-reused");
		assertThat(responses.path("200").path("headers").has("Idempotent-Replayed")).isTrue();
	}

	@Test
	void documentsAnOptionalKeyAsOptionalAndNoHeaderForDerivedKeys() {
		JsonNode paths = apiDocs().path("paths");
		assertThat(parameter(paths.path("/optional").path("post"), "Idempotency-Key").path("required").asBoolean())
			.isFalse();
		assertThat(parameter(paths.path("/events").path("post"), "Idempotency-Key").isMissingNode()).isTrue();
		assertThat(paths.path("/events").path("post").path("responses").has("422")).isTrue();
	}

	@Test
	void documents202AcceptedWithItsStatusLinkOnlyForOperationsThatSetAcceptAfter() {
		JsonNode paths = apiDocs().path("paths");
		JsonNode accepted = paths.path("/reports").path("post").path("responses").path("202");
		assertThat(accepted.path("headers").has("Location")).isTrue();
		assertThat(accepted.path("headers").has("Retry-After")).isTrue();
		assertThat(accepted.path("content").has("application/json")).isTrue();
		assertThat(paths.path("/summaries").path("post").path("responses").has("202")).isFalse();
		assertThat(paths.path("/effects").path("post").path("responses").has("202")).isFalse();
	}

	@Test
	void documentsTheKeyHeaderOnceWhenTheHandlerAlsoDeclaresIt() {
		JsonNode parameters = apiDocs().path("paths").path("/refunds/{id}").path("post").path("parameters");
		long keyParameters = 0;
		for (JsonNode parameter : parameters) {
			if (parameter.path("name").asString().equalsIgnoreCase("Idempotency-Key")) {
				keyParameters++;
			}
		}
		assertThat(keyParameters).isEqualTo(1);
	}

	private JsonNode apiDocs() {
		HttpResponse<byte[]> response = new Http(this.port).get("/v3/api-docs").send();
		assertThat(response.statusCode()).isEqualTo(200);
		return JsonMapper.builder().build().readTree(response.body());
	}

	private static JsonNode parameter(JsonNode operation, String name) {
		for (JsonNode parameter : operation.path("parameters")) {
			if (parameter.path("name").asString().equals(name)) {
				return parameter;
			}
		}
		return operation.path("parameters").path("missing");
	}

}
