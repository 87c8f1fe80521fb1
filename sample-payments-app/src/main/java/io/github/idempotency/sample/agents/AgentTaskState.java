package io.github.idempotency.sample.agents;

/**
 * Where an agent task is: {@code PENDING} once accepted, {@code IN_PROGRESS} while an attempt runs,
 * then {@code COMPLETED} or {@code FAILED}; a task that failed transiently goes back to
 * {@code IN_PROGRESS} on its next attempt.
 */
public enum AgentTaskState {

	/**
	 * Accepted, no attempt started yet.
	 */
	PENDING,

	/**
	 * An attempt is running.
	 */
	IN_PROGRESS,

	/**
	 * Done, with a result that answers every retry.
	 */
	COMPLETED,

	/**
	 * The last attempt failed: finally, which answers every retry, or transiently, which the next
	 * retry attempts again.
	 */
	FAILED

}
