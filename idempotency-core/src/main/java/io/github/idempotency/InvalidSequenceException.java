package io.github.idempotency;

import org.springframework.http.HttpStatus;


/**
 * Thrown when a call of an {@code @IdempotentSequence} operation yields no scope or no valid
 * sequence number ({@code 400}); nothing is claimed.
 */
public class InvalidSequenceException extends IdempotencyException {

	public InvalidSequenceException(String detail) {
		super(HttpStatus.BAD_REQUEST, "invalid-sequence", "Invalid sequence number", detail, null, null);
	}

}
