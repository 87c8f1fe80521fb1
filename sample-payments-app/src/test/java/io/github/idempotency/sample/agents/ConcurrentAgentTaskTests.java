package io.github.idempotency.sample.agents;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.support.Duplicates;
import io.github.idempotency.sample.support.PostgresFlowTest;
import io.github.idempotency.sample.support.TableLock;

import static io.github.idempotency.sample.agents.AgentTaskIdempotencyTests.task;
import static io.github.idempotency.sample.support.Payments.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Concurrent deliveries of one task, from real threads, while a table lock holds the first
 * attempt's work: the task shows {@code IN_PROGRESS}, every other delivery is answered in progress
 * or with the result, and the work runs once.
 */
class ConcurrentAgentTaskTests extends PostgresFlowTest {

	private static final int DELIVERIES = 8;

	@Test
	void concurrentDeliveriesOfOneTaskRunItOnce() throws Exception {
		String request = task("task-concurrent", "{\"sku\":\"A-1\",\"quantity\":2,\"unitPrice\":700}");
		Duplicates deliveries;
		try (TableLock lock = TableLock.exclusive(database(), "agent_task_attempt")) {
			deliveries = Duplicates.send(DELIVERIES, (i) -> this.http.post("/agent-tasks").json(request).send());
			lock.awaitWaiter();
			JsonNode running = json(this.http.get("/agent-tasks/task-concurrent").send());
			assertThat(running.get("state").asString()).isEqualTo("IN_PROGRESS");
			assertThat(running.get("attempts").asInt()).isOne();
			assertThat(deliveries.answered()).isLessThan(DELIVERIES);
		}
		HttpResponse<byte[]> original = deliveries.assertOneOriginalAndOnlyReplaysOrConflicts(200);
		assertThat(json(original).get("state").asString()).isEqualTo("COMPLETED");
		assertThat(this.db.agentTaskRuns("task-concurrent")).isOne();
	}

}
