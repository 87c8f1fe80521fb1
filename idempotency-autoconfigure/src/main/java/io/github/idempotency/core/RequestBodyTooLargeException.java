package io.github.idempotency.core;

/**
 * Thrown when a request body exceeds the size the starter is willing to buffer.
 */
public class RequestBodyTooLargeException extends IdempotencyException {

	public RequestBodyTooLargeException(String detail) {
		super(IdempotencyProblem.BODY_TOO_LARGE, detail);
	}

}
