package io.github.idempotency.sample.sessions;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Applies cart updates to active sessions, one at a time per session and in increasing order of
 * their numbers, and reads carts back.
 */
@Service
public class SessionCartService {

	private final SessionRepository sessions;

	private final SessionCartRepository carts;

	SessionCartService(SessionRepository sessions, SessionCartRepository carts) {
		this.sessions = sessions;
		this.carts = carts;
	}

	/**
	 * Apply an update to a session's cart. The session's row stays locked until the transaction
	 * ends, so that updates of one session never interleave and a session is never ended halfway
	 * through one. An update whose number was already applied, as after a crash that lost its
	 * answer, changes nothing and answers with the cart.
	 * @param sessionId the session
	 * @param request the update
	 * @return the cart after the update
	 * @throws InvalidCartUpdateException if the update is malformed
	 * @throws SessionNotFoundException if there is no such session
	 * @throws SessionNotActiveException if the session has ended or expired
	 * @throws CartUpdateOutOfOrderException if an update with a higher number was applied
	 */
	@Transactional
	public SessionCart apply(String sessionId, CartUpdateRequest request) {
		CartUpdate update = CartUpdate.from(request);
		boolean active = this.sessions.lockActive(sessionId)
			.orElseThrow(() -> new SessionNotFoundException(sessionId));
		if (!active) {
			throw new SessionNotActiveException(sessionId);
		}
		long applied = this.carts.lastSequence(sessionId);
		if (update.sequence() < applied) {
			throw new CartUpdateOutOfOrderException(update.sequence(), applied);
		}
		if (update.sequence() > applied) {
			this.carts.apply(sessionId, update);
		}
		return this.carts.find(sessionId);
	}

	/**
	 * Return a session's cart, whether the session is active or not.
	 * @param sessionId the session
	 * @return the cart
	 * @throws SessionNotFoundException if there is no such session
	 */
	@Transactional(readOnly = true)
	public SessionCart find(String sessionId) {
		if (this.sessions.findById(sessionId).isEmpty()) {
			throw new SessionNotFoundException(sessionId);
		}
		return this.carts.find(sessionId);
	}

}
