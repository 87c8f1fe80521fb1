package io.github.idempotency.sample.agents;

/**
 * Thrown when an agent task failed finally; its answer is stored and replayed, and the task is
 * never attempted again.
 */
public class AgentTaskFailedException extends RuntimeException {

	private final AgentTask task;

	AgentTaskFailedException(AgentTask task) {
		super(task.failure().detail());
		this.task = task;
	}

	public AgentTask getTask() {
		return this.task;
	}

}
