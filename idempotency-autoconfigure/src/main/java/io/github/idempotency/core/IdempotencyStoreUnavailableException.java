package io.github.idempotency.core;

import java.time.Duration;

/**
 * Thrown when the idempotency store cannot be reached, so that no effect may safely run.
 */
public class IdempotencyStoreUnavailableException extends IdempotencyException {

	private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

	public IdempotencyStoreUnavailableException(Throwable cause) {
		super(IdempotencyProblem.STORE_UNAVAILABLE, "The idempotency store is unavailable; retry later.", cause);
	}

	@Override
	public Duration getRetryAfter() {
		return RETRY_AFTER;
	}

}
