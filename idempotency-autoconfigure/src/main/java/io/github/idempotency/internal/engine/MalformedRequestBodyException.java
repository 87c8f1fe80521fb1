package io.github.idempotency.internal.engine;

import org.springframework.http.HttpStatus;

import io.github.idempotency.IdempotencyException;

/**
 * Thrown when a body cannot be fingerprinted unambiguously, such as JSON with a duplicate member
 * ({@code 400}).
 */
public class MalformedRequestBodyException extends IdempotencyException {

	public MalformedRequestBodyException(String detail) {
		super(HttpStatus.BAD_REQUEST, "malformed-body", "Ambiguous request body", detail, null, null);
	}

}
