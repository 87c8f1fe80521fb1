package io.github.idempotency;

import org.springframework.http.HttpStatus;


/**
 * Thrown when an idempotency key is empty, too long, not printable ASCII, or sent more than once
 * ({@code 400}).
 */
public class InvalidIdempotencyKeyException extends IdempotencyException {

	public InvalidIdempotencyKeyException(String detail) {
		super(HttpStatus.BAD_REQUEST, "invalid-key", "Invalid idempotency key", detail, null, null);
	}

}
