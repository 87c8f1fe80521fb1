package io.github.idempotency.sample.sessions;

import java.time.Instant;

/**
 * A session as {@code POST /sessions} answers it, with its token.
 *
 * @param id the session id, such as {@code ses_3f2a...}
 * @param userId the user
 * @param deviceId the device
 * @param number the session's number on the device: 1 for the first, then 2, 3...
 * @param token the bearer token of the session
 * @param createdAt when the session started
 * @param expiresAt when the session ends unless it is ended before
 */
public record IssuedSession(String id, String userId, String deviceId, int number, String token, Instant createdAt,
		Instant expiresAt) {

}
