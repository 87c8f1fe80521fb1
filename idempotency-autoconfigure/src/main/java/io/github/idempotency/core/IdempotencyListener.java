package io.github.idempotency.core;

import java.time.Duration;

/**
 * Callback for what the engine does, such as metrics; every method has a no-op default.
 */
public interface IdempotencyListener {

	/**
	 * A listener that does nothing.
	 */
	IdempotencyListener NONE = new IdempotencyListener() {
	};

	/**
	 * A request on the given operation ended with the given outcome.
	 * @param operation the operation name
	 * @param outcome the outcome
	 */
	default void onOutcome(String operation, Outcome outcome) {
	}

	/**
	 * A claim started running the operation.
	 * @param operation the operation name
	 * @param takenOver whether the claim took over a lease that had run out
	 */
	default void onExecutionStarted(String operation, boolean takenOver) {
	}

	/**
	 * A claim finished running the operation, however it ended.
	 * @param operation the operation name
	 * @param duration how long it ran
	 */
	default void onExecutionFinished(String operation, Duration duration) {
	}

}
