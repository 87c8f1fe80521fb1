package io.github.idempotency;

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

	/**
	 * A claim finished running the operation: its response was stored ({@link Outcome#EXECUTED}),
	 * its key was released for a retry ({@link Outcome#RELEASED}), or it lost its key
	 * ({@link Outcome#TAKEN_OVER}).
	 * @param operation the operation name
	 * @param attempt which run of the key's operation it was: 1 for the first, one more for each
	 * run after a transient failure or a lease that ran out
	 * @param outcome how it ended
	 */
	default void onAttemptFinished(String operation, int attempt, Outcome outcome) {
	}

}
