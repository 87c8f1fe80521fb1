package io.github.idempotency;

import org.springframework.http.HttpStatus;


/**
 * Thrown when a body cannot be fingerprinted unambiguously, such as JSON with a duplicate member
 * ({@code 400}).
 */
public class MalformedRequestBodyException extends IdempotencyException {

	public MalformedRequestBodyException(String detail) {
		super(HttpStatus.BAD_REQUEST, "malformed-body", "Ambiguous request body", detail, null, null);
	}

}
