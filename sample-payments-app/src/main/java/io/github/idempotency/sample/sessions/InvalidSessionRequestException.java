package io.github.idempotency.sample.sessions;

/**
 * Thrown when a session request names no valid user or device, so that no key can be made.
 */
public class InvalidSessionRequestException extends RuntimeException {

	public InvalidSessionRequestException(String message) {
		super(message);
	}

}
