package io.github.idempotency.sample.sessions;

import java.security.SecureRandom;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.UUID;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;

/**
 * Starts, looks up and ends sessions: a device has at most one active session, and a login while
 * it has one gets that one. Session updates ({@code PATCH /sessions/{id}/...}) find their session
 * with {@link #find(String)}.
 */
@Service
public class SessionService {

	private static final SecureRandom RANDOM = new SecureRandom();

	private final SessionRepository sessions;

	private final SessionProperties properties;

	SessionService(SessionRepository sessions, SessionProperties properties) {
		this.sessions = sessions;
		this.properties = properties;
	}

	/**
	 * Return the device's active session, or start a new one. Each statement commits on its own,
	 * so that a login that loses the race to start a session number can read the winner's session.
	 * @param request the request, with valid ids (see {@link SessionKeys})
	 * @return the session, and whether this call started it
	 */
	public SessionStart start(CreateSessionRequest request) {
		String userId = request.userId();
		String deviceId = request.deviceId();
		IssuedSession active = this.sessions.findActive(userId, deviceId).orElse(null);
		if (active != null) {
			return new SessionStart(active, false);
		}
		int number = this.sessions.latest(userId, deviceId).map((latest) -> latest.number() + 1).orElse(1);
		Instant now = this.sessions.now().truncatedTo(ChronoUnit.MILLIS);
		IssuedSession session = new IssuedSession("ses_" + UUID.randomUUID().toString().replace("-", ""), userId,
				deviceId, number, newToken(), now, now.plus(this.properties.lifetime()));
		try {
			this.sessions.insert(session);
			return new SessionStart(session, true);
		}
		catch (DuplicateKeyException ex) {
			return this.sessions.findActive(userId, deviceId)
				.map((winner) -> new SessionStart(winner, false))
				.orElseThrow(() -> ex);
		}
	}

	/**
	 * Return a session.
	 * @param id the session id
	 * @return the session, active or not
	 * @throws SessionNotFoundException if there is no such session
	 */
	public SessionStatus find(String id) {
		return this.sessions.findById(id).orElseThrow(() -> new SessionNotFoundException(id));
	}

	/**
	 * End a session; ending one that is over already changes nothing.
	 * @param id the session id
	 * @throws SessionNotFoundException if there is no such session
	 */
	public void end(String id) {
		if (!this.sessions.end(id) && this.sessions.findById(id).isEmpty()) {
			throw new SessionNotFoundException(id);
		}
	}

	private static String newToken() {
		byte[] bytes = new byte[32];
		RANDOM.nextBytes(bytes);
		return "st_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
	}

	/**
	 * The session a login gets.
	 *
	 * @param session the session
	 * @param started whether the login started it, rather than finding it active
	 */
	public record SessionStart(IssuedSession session, boolean started) {

	}

}
