package io.github.idempotency.internal.engine;

import org.springframework.http.HttpStatus;

import io.github.idempotency.IdempotencyException;

/**
 * Thrown when a call of an {@code @IdempotentSequence} operation yields no scope or no valid
 * sequence number ({@code 400}); nothing is claimed.
 */
public class InvalidSequenceException extends IdempotencyException {

	public InvalidSequenceException(String detail) {
		super(HttpStatus.BAD_REQUEST, "invalid-sequence", "Invalid sequence number", detail, null, null);
	}

}
