package io.github.idempotency.core;

import java.time.Duration;

/**
 * Thrown when a request with the same key is still being processed; a message consumer should let
 * the broker redeliver later.
 */
public class IdempotencyKeyInProgressException extends IdempotencyException {

	private final Duration retryAfter;

	public IdempotencyKeyInProgressException(Duration retryAfter) {
		this(IdempotencyProblem.IN_PROGRESS,
				"A request with this idempotency key is still being processed; retry later.", retryAfter);
	}

	protected IdempotencyKeyInProgressException(IdempotencyProblem problem, String detail, Duration retryAfter) {
		super(problem, detail);
		this.retryAfter = retryAfter;
	}

	@Override
	public Duration getRetryAfter() {
		return this.retryAfter;
	}

}
