package io.github.idempotency.client;

/**
 * Receives the outcome of every attempt of a keyed call, for logging or metrics.
 */
@FunctionalInterface
public interface RetryListener {

	/**
	 * A listener that does nothing.
	 */
	RetryListener NONE = (attempt) -> {
	};

	/**
	 * Called after each attempt, before any wait for the next one.
	 * @param attempt the outcome of the attempt
	 */
	void onAttempt(RetryAttempt attempt);

	/**
	 * Return a listener that calls this listener and then another one.
	 * @param next the listener to call second
	 * @return the combined listener
	 */
	default RetryListener andThen(RetryListener next) {
		return (attempt) -> {
			onAttempt(attempt);
			next.onAttempt(attempt);
		};
	}

}
