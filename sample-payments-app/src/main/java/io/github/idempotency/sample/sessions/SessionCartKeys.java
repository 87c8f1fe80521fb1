package io.github.idempotency.sample.sessions;

import org.springframework.stereotype.Component;

/**
 * Derives the idempotency key of a cart update, {@code session_update:{sessionId}:cart:{sequence}},
 * and the scope its sequence number is ordered in, {@code {sessionId}:cart}. The key is read before
 * anything is claimed, so a malformed update, or one for a session that does not exist, is refused
 * here and never uses up its number.
 */
@Component("sessionCartKeys")
public class SessionCartKeys {

	/**
	 * The operation type of the key: the cart is the session state these updates change.
	 */
	static final String OPERATION_TYPE = "cart";

	private final SessionRepository sessions;

	SessionCartKeys(SessionRepository sessions) {
		this.sessions = sessions;
	}

	/**
	 * Return the key of a cart update; called from the key expression of
	 * {@code PATCH /sessions/{id}/cart}.
	 * @param sessionId the session
	 * @param update the update
	 * @return {@code session_update:{sessionId}:cart:{sequence}}
	 * @throws InvalidCartUpdateException if the update is malformed
	 * @throws SessionNotFoundException if there is no such session
	 */
	public String keyFor(String sessionId, CartUpdateRequest update) {
		CartUpdate valid = CartUpdate.from(update);
		if (!SessionKeys.ID.matcher(sessionId).matches() || this.sessions.findById(sessionId).isEmpty()) {
			throw new SessionNotFoundException(sessionId);
		}
		return "session_update:" + scopeOf(sessionId) + ":" + valid.sequence();
	}

	/**
	 * Return the scope whose sequence numbers must increase: one per session and operation type.
	 * @param sessionId the session, checked by {@link #keyFor}
	 * @return {@code {sessionId}:cart}
	 */
	public String scopeOf(String sessionId) {
		return sessionId + ":" + OPERATION_TYPE;
	}

}
