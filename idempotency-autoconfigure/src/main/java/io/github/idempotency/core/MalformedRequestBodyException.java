package io.github.idempotency.core;

/**
 * Thrown when a request body cannot be fingerprinted unambiguously.
 */
public class MalformedRequestBodyException extends IdempotencyException {

	public MalformedRequestBodyException(String detail) {
		super(IdempotencyProblem.MALFORMED_BODY, detail);
	}

}
