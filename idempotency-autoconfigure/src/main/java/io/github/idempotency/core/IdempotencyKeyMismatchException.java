package io.github.idempotency.core;

/**
 * Thrown when a key is reused for a request with a different fingerprint.
 */
public class IdempotencyKeyMismatchException extends IdempotencyException {

	public IdempotencyKeyMismatchException(String detail) {
		super(IdempotencyProblem.KEY_REUSED, detail);
	}

}
