package io.github.idempotency.sample.agents;

/**
 * Thrown when an agent task does not exist.
 */
public class AgentTaskNotFoundException extends RuntimeException {

	public AgentTaskNotFoundException(String taskId) {
		super("Agent task " + taskId + " does not exist.");
	}

}
