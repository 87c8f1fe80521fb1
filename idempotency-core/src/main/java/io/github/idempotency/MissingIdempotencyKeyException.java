package io.github.idempotency;

import org.springframework.http.HttpStatus;


/**
 * Thrown when an operation requires an idempotency key and the request or call has none
 * ({@code 400}).
 */
public class MissingIdempotencyKeyException extends IdempotencyException {

	public MissingIdempotencyKeyException(String detail) {
		super(HttpStatus.BAD_REQUEST, "missing-key", "Idempotency key missing", detail, null, null);
	}

}
