package io.github.idempotency.core;

import java.time.Duration;

/**
 * Base class of the exceptions with which the starter refuses a request, each mapped to one
 * {@link IdempotencyProblem}.
 */
public abstract class IdempotencyException extends RuntimeException {

	private final IdempotencyProblem problem;

	protected IdempotencyException(IdempotencyProblem problem, String detail) {
		this(problem, detail, null);
	}

	protected IdempotencyException(IdempotencyProblem problem, String detail, Throwable cause) {
		super(detail, cause);
		this.problem = problem;
	}

	/**
	 * Return the problem this exception stands for.
	 * @return the problem
	 */
	public IdempotencyProblem getProblem() {
		return this.problem;
	}

	/**
	 * Return how long the client should wait before retrying, if a retry can succeed.
	 * @return the delay, or {@code null} when a retry with the same request cannot succeed
	 */
	public Duration getRetryAfter() {
		return null;
	}

}
