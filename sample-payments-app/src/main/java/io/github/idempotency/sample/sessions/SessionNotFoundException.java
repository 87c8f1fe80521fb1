package io.github.idempotency.sample.sessions;

/**
 * Thrown when a session does not exist.
 */
public class SessionNotFoundException extends RuntimeException {

	public SessionNotFoundException(String id) {
		super("Session " + id + " does not exist.");
	}

}
