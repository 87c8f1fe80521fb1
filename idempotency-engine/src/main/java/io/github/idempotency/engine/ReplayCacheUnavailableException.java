package io.github.idempotency.engine;

/**
 * Thrown at start-up when {@code idempotency.replay-cache.enabled} is set without Caffeine on the
 * class path.
 */
class ReplayCacheUnavailableException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	ReplayCacheUnavailableException() {
		super("idempotency.replay-cache.enabled is true, but Caffeine (com.github.ben-manes.caffeine:caffeine), "
				+ "which holds the replay cache, is not on the class path");
	}

}
