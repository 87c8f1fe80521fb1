package io.github.idempotency;

import org.springframework.http.HttpStatus;


/**
 * Thrown when a body is larger than {@code idempotency.max-body-size} ({@code 413}).
 */
public class RequestBodyTooLargeException extends IdempotencyException {

	public RequestBodyTooLargeException(String detail) {
		super(HttpStatus.CONTENT_TOO_LARGE, "body-too-large", "Request body too large", detail, null, null);
	}

}
