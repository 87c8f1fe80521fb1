package io.github.idempotency.sample.openapi;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.support.PostgresFlowTest;
import io.github.idempotency.testsupport.Http;

import static io.github.idempotency.sample.support.Payments.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application serves its OpenAPI description and Swagger UI, in which the starter documents
 * every idempotent operation: a key header only where the key is not derived from the request.
 */
class OpenApiDocumentationTests extends PostgresFlowTest {

	@Test
	void describesEveryIdempotentOperationWithItsReplayHeaderAndProblems() {
		HttpResponse<byte[]> response = this.http.get("/v3/api-docs").send();
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode paths = json(response).get("paths");
		String[][] operations = { { "/payments", "post" }, { "/cart-mandates", "post" }, { "/orders", "post" },
				{ "/webhooks/shop", "post" }, { "/sessions", "post" }, { "/intent-mandates", "post" },
				{ "/sync/products/{id}", "put" }, { "/sync/users/{id}", "put" }, { "/agent-tasks", "post" },
				{ "/sessions/{id}/cart", "patch" }, { "/webhooks/gateway", "post" } };
		for (String[] pathAndMethod : operations) {
			String path = pathAndMethod[0];
			JsonNode operation = paths.get(path).get(pathAndMethod[1]);
			assertThat(operation).as(path).isNotNull();
			JsonNode success = operation.get("responses").properties().stream()
				.filter((entry) -> entry.getKey().startsWith("2"))
				.findFirst()
				.orElseThrow()
				.getValue();
			assertThat(success.get("headers").has("Idempotent-Replayed")).as(path).isTrue();
			assertThat(operation.get("responses").has("409")).as(path).isTrue();
			if (path.equals("/payments")) {
				assertThat(keyHeaders(operation)).as(path).isPositive();
			}
			else {
				assertThat(keyHeaders(operation)).as("derived key of %s", path).isZero();
			}
		}
		assertThat(paths.has("/ledger")).isTrue();
	}

	@Test
	void servesSwaggerUi() {
		HttpResponse<byte[]> redirect = this.http.get("/swagger-ui.html").send();
		assertThat(redirect.statusCode()).isEqualTo(302);
		assertThat(redirect.headers().firstValue("Location")).hasValueSatisfying(
				(location) -> assertThat(location).endsWith("/swagger-ui/index.html"));
		HttpResponse<byte[]> page = this.http.get("/swagger-ui/index.html").send();
		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(Http.text(page)).contains("Swagger UI");
	}

	private static long keyHeaders(JsonNode operation) {
		JsonNode parameters = operation.get("parameters");
		if (parameters == null) {
			return 0;
		}
		return parameters.valueStream()
			.filter((parameter) -> "header".equals(parameter.get("in").asString())
					&& "Idempotency-Key".equals(parameter.get("name").asString()))
			.count();
	}

}
