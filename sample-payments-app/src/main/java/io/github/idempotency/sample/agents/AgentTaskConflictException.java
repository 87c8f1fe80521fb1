package io.github.idempotency.sample.agents;

/**
 * Thrown when a task id that names a task already is sent with another agent, skill or input, after
 * the idempotency record that would have refused it is gone; final.
 */
public class AgentTaskConflictException extends RuntimeException {

	AgentTaskConflictException(String taskId) {
		super("Task id " + taskId + " already names a different task; send a new task with a new id.");
	}

}
