package io.github.idempotency.internal.engine;

import org.springframework.http.HttpStatus;

import io.github.idempotency.IdempotencyException;

/**
 * Thrown when a body is larger than {@code idempotency.max-body-size} ({@code 413}).
 */
public class RequestBodyTooLargeException extends IdempotencyException {

	public RequestBodyTooLargeException(String detail) {
		super(HttpStatus.CONTENT_TOO_LARGE, "body-too-large", "Request body too large", detail, null, null);
	}

}
