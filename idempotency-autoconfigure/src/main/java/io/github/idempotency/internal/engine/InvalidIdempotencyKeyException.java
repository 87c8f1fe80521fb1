package io.github.idempotency.internal.engine;

import org.springframework.http.HttpStatus;

import io.github.idempotency.IdempotencyException;

/**
 * Thrown when an idempotency key is empty, too long, not printable ASCII, or sent more than once
 * ({@code 400}).
 */
public class InvalidIdempotencyKeyException extends IdempotencyException {

	public InvalidIdempotencyKeyException(String detail) {
		super(HttpStatus.BAD_REQUEST, "invalid-key", "Invalid idempotency key", detail, null, null);
	}

}
