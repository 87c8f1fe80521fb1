package io.github.idempotency.core;

/**
 * Thrown when an operation requires an idempotency key and the request has none.
 */
public class MissingIdempotencyKeyException extends IdempotencyException {

	public MissingIdempotencyKeyException(String detail) {
		super(IdempotencyProblem.MISSING_KEY, detail);
	}

}
