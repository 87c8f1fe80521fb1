package io.github.idempotency.sample.agents;

/**
 * Thrown when an attempt of an agent task failed transiently; answered {@code 503}, so nothing is
 * stored and a retry with the same task id attempts the task again.
 */
public class AgentTaskInterruptedException extends RuntimeException {

	private final AgentTask task;

	AgentTaskInterruptedException(AgentTask task) {
		super(task.failure().detail());
		this.task = task;
	}

	public AgentTask getTask() {
		return this.task;
	}

}
