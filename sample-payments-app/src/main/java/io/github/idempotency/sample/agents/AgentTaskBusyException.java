package io.github.idempotency.sample.agents;

/**
 * Thrown when another attempt of the same task started or finished first; answered {@code 409},
 * so a retry gets the task as that attempt leaves it.
 */
public class AgentTaskBusyException extends RuntimeException {

	AgentTaskBusyException(String taskId) {
		super("Another attempt of agent task " + taskId + " started first; retry to get its outcome.");
	}

}
