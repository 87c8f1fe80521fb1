package io.github.idempotency.sample.agents;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.client.RestClient;

import io.github.idempotency.client.IdempotencyKeyRetryInterceptor;
import io.github.idempotency.sample.support.PostgresFlowTest;
import io.github.idempotency.testsupport.Http;

import static io.github.idempotency.sample.agents.AgentTaskIdempotencyTests.task;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A long agent task, accepted at once here ({@code accept-after: 0s}): answered {@code 202} with
 * the link of its status, and an agent calling with the project's retrying client gets the
 * completed task, the client following the link; the task runs once.
 */
@TestPropertySource(properties = "idempotency.operations.run-agent-task.accept-after=0s")
class LongAgentTaskTests extends PostgresFlowTest {

	private static final String THINKING = "{\"sku\":\"A-1\",\"quantity\":3,\"unitPrice\":250,\"thinkMillis\":1500}";

	@Test
	void aLongTaskIsAccepted202AndItsRetriesGetTheSameLinkNotASecondRun() {
		HttpResponse<byte[]> accepted = this.http.post("/agent-tasks").json(task("task-long", THINKING)).send();
		assertThat(accepted.statusCode()).isEqualTo(202);
		String link = accepted.headers().firstValue("Location").orElseThrow();
		HttpResponse<byte[]> retry = this.http.post("/agent-tasks").json(task("task-long", THINKING)).send();
		assertThat(retry.statusCode()).isEqualTo(202);
		assertThat(retry.headers().firstValue("Location")).hasValue(link);
		assertThat(Http.text(this.http.get(link).send())).contains("\"status\":\"running\"");
		assertThat(this.db.agentTaskRuns("task-long")).isOne();
	}

	@Test
	void anAgentCallingWithTheRetryingClientGetsTheCompletedTask() {
		List<Integer> statuses = new CopyOnWriteArrayList<>();
		RestClient client = RestClient.builder()
			.baseUrl("http://localhost:" + this.port)
			.requestInterceptor(IdempotencyKeyRetryInterceptor.withDefaults())
			.requestInterceptor((request, body, execution) -> {
				var response = execution.execute(request, body);
				statuses.add(response.getStatusCode().value());
				return response;
			})
			.build();
		ResponseEntity<String> task = client.post()
			.uri("/agent-tasks")
			.contentType(MediaType.APPLICATION_JSON)
			.body(task("task-followed", THINKING))
			.retrieve()
			.toEntity(String.class);
		assertThat(task.getStatusCode().value()).isEqualTo(200);
		assertThat(task.getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(task.getBody()).contains("\"state\":\"COMPLETED\"").contains("\"total\":750");
		assertThat(statuses).first().isEqualTo(202);
		assertThat(this.db.agentTaskRuns("task-followed")).isOne();
	}

}
