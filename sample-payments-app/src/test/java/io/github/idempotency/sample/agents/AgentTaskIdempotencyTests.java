package io.github.idempotency.sample.agents;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.support.PostgresFlowTest;

import static io.github.idempotency.sample.support.Payments.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /agent-tasks} is keyed by the task id: a retry of a completed task gets its cached
 * result, of a finally failed one its stored failure, and of a transiently failed one a new
 * attempt; each run of the work is a row in {@code agent_task_attempt}.
 */
class AgentTaskIdempotencyTests extends PostgresFlowTest {

	private String taskId;

	@BeforeEach
	void newTask() {
		this.taskId = "task-" + UUID.randomUUID();
	}

	@Test
	void retryOfACompletedTaskGetsItsCachedResult() {
		String task = task(this.taskId, "{\"sku\":\"A-1\",\"quantity\":3,\"unitPrice\":1250}");
		HttpResponse<byte[]> first = this.http.post("/agent-tasks").json(task).send();
		HttpResponse<byte[]> retry = this.http.post("/agent-tasks").json(task).send();
		assertThat(first.statusCode()).isEqualTo(200);
		JsonNode completed = json(first);
		assertThat(completed.get("state").asString()).isEqualTo("COMPLETED");
		assertThat(completed.get("attempts").asInt()).isOne();
		assertThat(completed.get("result").get("total").asLong()).isEqualTo(3750);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(this.db.agentTaskRuns(this.taskId)).isOne();
		assertThat(outcomes()).containsExactly("COMPLETED");
		assertThat(this.db.record(AgentTaskController.RUN_OPERATION, this.taskId)).containsEntry("status",
				"COMPLETED");
	}

	@Test
	void retryOfAFinallyFailedTaskGetsTheStoredFailureAndNeverRunsAgain() {
		String task = task(this.taskId, "{\"sku\":\"discontinued-7\",\"quantity\":1,\"unitPrice\":100}");
		HttpResponse<byte[]> first = this.http.post("/agent-tasks").json(task).send();
		HttpResponse<byte[]> retry = this.http.post("/agent-tasks").json(task).send();
		assertThat(first.statusCode()).isEqualTo(422);
		JsonNode problem = json(first);
		assertThat(problem.get("type").asString()).isEqualTo("https://payments.example/problems/agent-task-failed");
		assertThat(problem.get("retryable").asBoolean()).isFalse();
		assertThat(problem.get("state").asString()).isEqualTo("FAILED");
		assertThat(retry.statusCode()).isEqualTo(422);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(outcomes()).containsExactly("FAILED_FINAL");
		assertThat(this.db.record(AgentTaskController.RUN_OPERATION, this.taskId)).containsEntry("response_status",
				422);
	}

	@Test
	void retriesOfATransientlyFailedTaskRunItAgainUntilItCompletes() {
		String task = task(this.taskId, "{\"sku\":\"A-1\",\"quantity\":2,\"unitPrice\":500,\"transientFailures\":2}");
		for (int attempt = 1; attempt <= 2; attempt++) {
			HttpResponse<byte[]> failed = this.http.post("/agent-tasks").json(task).send();
			assertThat(failed.statusCode()).isEqualTo(503);
			assertThat(failed.headers().firstValue("Retry-After")).hasValue("1");
			assertThat(failed.headers().firstValue("Idempotent-Replayed")).isEmpty();
			JsonNode problem = json(failed);
			assertThat(problem.get("type").asString())
				.isEqualTo("https://payments.example/problems/agent-task-interrupted");
			assertThat(problem.get("retryable").asBoolean()).isTrue();
			assertThat(problem.get("attempts").asInt()).isEqualTo(attempt);
			// Released: the record keeps only what the attempts went through, no response.
			assertThat(this.db.record(AgentTaskController.RUN_OPERATION, this.taskId)).as("released")
				.containsEntry("status", "RELEASED")
				.containsEntry("attempts", attempt)
				.containsEntry("response_status", null);
		}
		HttpResponse<byte[]> completed = this.http.post("/agent-tasks").json(task).send();
		assertThat(completed.statusCode()).isEqualTo(200);
		assertThat(json(completed).get("attempts").asInt()).isEqualTo(3);
		assertThat(json(completed).get("result").get("total").asLong()).isEqualTo(1000);
		HttpResponse<byte[]> retry = this.http.post("/agent-tasks").json(task).send();
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(retry.body()).isEqualTo(completed.body());
		assertThat(outcomes()).containsExactly("FAILED_TRANSIENT", "FAILED_TRANSIENT", "COMPLETED");
	}

	@Test
	void taskAnswersFromItsRowOnceTheIdempotencyRecordHasExpired() {
		String completedTask = task(this.taskId, "{\"sku\":\"A-1\",\"quantity\":1,\"unitPrice\":100}");
		String failedId = this.taskId + "-failed";
		String failedTask = task(failedId, "{\"sku\":\"A-1\",\"quantity\":0,\"unitPrice\":100}");
		HttpResponse<byte[]> completed = this.http.post("/agent-tasks").json(completedTask).send();
		HttpResponse<byte[]> failed = this.http.post("/agent-tasks").json(failedTask).send();
		this.db.expireRecord(AgentTaskController.RUN_OPERATION, this.taskId);
		this.db.expireRecord(AgentTaskController.RUN_OPERATION, failedId);
		HttpResponse<byte[]> completedAgain = this.http.post("/agent-tasks").json(completedTask).send();
		HttpResponse<byte[]> failedAgain = this.http.post("/agent-tasks").json(failedTask).send();
		assertThat(completedAgain.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(completedAgain.statusCode()).isEqualTo(200);
		assertThat(completedAgain.body()).isEqualTo(completed.body());
		assertThat(failedAgain.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(failedAgain.statusCode()).isEqualTo(422);
		assertThat(failedAgain.body()).isEqualTo(failed.body());
		assertThat(this.db.agentTaskRuns(this.taskId)).isOne();
		assertThat(this.db.agentTaskRuns(failedId)).isOne();
	}

	@Test
	void taskIdSentWithAnotherInputIsRefusedAndRunsNothing() {
		this.http.post("/agent-tasks")
			.json(task(this.taskId, "{\"sku\":\"A-1\",\"quantity\":1,\"unitPrice\":100}"))
			.send();
		String other = task(this.taskId, "{\"sku\":\"A-1\",\"quantity\":9,\"unitPrice\":100}");
		HttpResponse<byte[]> reused = this.http.post("/agent-tasks").json(other).send();
		assertThat(reused.statusCode()).isEqualTo(422);
		assertThat(json(reused).get("type").asString()).isEqualTo("urn:problem-type:idempotency:key-reused");
		this.db.expireRecord(AgentTaskController.RUN_OPERATION, this.taskId);
		HttpResponse<byte[]> afterExpiry = this.http.post("/agent-tasks").json(other).send();
		assertThat(afterExpiry.statusCode()).isEqualTo(422);
		assertThat(json(afterExpiry).get("type").asString())
			.isEqualTo("https://payments.example/problems/agent-task-conflict");
		assertThat(this.db.agentTaskRuns(this.taskId)).isOne();
		assertThat(json(this.http.get("/agent-tasks/" + this.taskId).send()).get("input").get("quantity").asInt())
			.isOne();
	}

	@Test
	void taskWithoutAUsableIdOrInputIsRefusedBeforeAnythingIsClaimed() {
		for (String body : new String[] { "{\"skill\":\"quote\",\"input\":{}}",
				"{\"taskId\":\"has space\",\"skill\":\"quote\",\"input\":{}}",
				"{\"taskId\":\"t-1\",\"skill\":\"quote\",\"input\":[1]}" }) {
			HttpResponse<byte[]> response = this.http.post("/agent-tasks").json(body).send();
			assertThat(response.statusCode()).as(body).isEqualTo(400);
			assertThat(json(response).get("type").asString())
				.isEqualTo("https://payments.example/problems/invalid-agent-task");
		}
		assertThat(this.db.records(AgentTaskController.RUN_OPERATION)).isZero();
		assertThat(this.http.get("/agent-tasks/t-1").send().statusCode()).isEqualTo(404);
	}

	private List<String> outcomes() {
		return this.db.rows("SELECT outcome FROM agent_task_attempt WHERE task_id = ? ORDER BY attempt", this.taskId)
			.stream()
			.map((row) -> (String) row.get("outcome"))
			.toList();
	}

	static String task(String taskId, String input) {
		return "{\"taskId\":\"" + taskId + "\",\"agentId\":\"shopping-agent\",\"skill\":\"quote\",\"input\":" + input
				+ "}";
	}

}
