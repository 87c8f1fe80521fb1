package io.github.idempotency.core;

/**
 * Thrown when an idempotency key is empty, too long, not printable ASCII or ambiguous.
 */
public class InvalidIdempotencyKeyException extends IdempotencyException {

	public InvalidIdempotencyKeyException(String detail) {
		super(IdempotencyProblem.INVALID_KEY, detail);
	}

}
