package io.github.idempotency;

import org.springframework.http.HttpStatus;

/**
 * Thrown when a key is used again for a different request ({@code 422}); the stored response is
 * never shown. It is final: a retry of the same request gets it again.
 */
public class IdempotencyKeyMismatchException extends IdempotencyException {

	public IdempotencyKeyMismatchException(String detail) {
		super(HttpStatus.UNPROCESSABLE_ENTITY, "key-reused", "Idempotency key reused for a different request", detail,
				null, null);
	}

}
