package io.github.idempotency.sample.sessions;

/**
 * Thrown when a session that has ended or expired is asked to change.
 */
public class SessionNotActiveException extends RuntimeException {

	public SessionNotActiveException(String id) {
		super("Session " + id + " has ended or expired; its cart no longer changes.");
	}

}
