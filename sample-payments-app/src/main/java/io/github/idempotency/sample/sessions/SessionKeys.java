package io.github.idempotency.sample.sessions;

import java.util.regex.Pattern;

import org.springframework.stereotype.Component;

/**
 * Derives the idempotency key of a login, {@code session:{userId}:{deviceId}:{number}}, where
 * {@code number} is the number of the device's active session, or of the next session when none is
 * active. While a session is active every login of its device has its key and replays the answer
 * that started it; once the session ends or expires, by the database clock, the number moves on,
 * so no login is ever answered with the token of a session that was over before it arrived.
 */
@Component("sessionKeys")
public class SessionKeys {

	/**
	 * What a user or device id may be: no colon, so that two pairs of ids never make one key.
	 */
	static final Pattern ID = Pattern.compile("[A-Za-z0-9._@-]{1,64}");

	private final SessionRepository sessions;

	SessionKeys(SessionRepository sessions) {
		this.sessions = sessions;
	}

	/**
	 * Return the key of a login; called from the key expression of {@code POST /sessions}, so
	 * before anything is claimed.
	 * @param request the request
	 * @return {@code session:{userId}:{deviceId}:{number}}
	 * @throws InvalidSessionRequestException if the user or device id is missing or malformed
	 */
	public String keyFor(CreateSessionRequest request) {
		String userId = validId("userId", request.userId());
		String deviceId = validId("deviceId", request.deviceId());
		int number = this.sessions.latest(userId, deviceId).map(SessionRepository.Latest::current).orElse(1);
		return "session:" + userId + ":" + deviceId + ":" + number;
	}

	private static String validId(String name, String value) {
		if (value == null || !ID.matcher(value).matches()) {
			throw new InvalidSessionRequestException(
					name + " is required: 1 to 64 letters, digits, '.', '_', '@' or '-'.");
		}
		return value;
	}

}
