package io.github.idempotency.sample.sessions;

import java.time.Instant;

/**
 * A session as {@code GET /sessions/{id}} shows it: without its token, with its status by the
 * database clock.
 *
 * @param id the session id
 * @param userId the user
 * @param deviceId the device
 * @param number the session's number on the device
 * @param status {@code ACTIVE}, {@code ENDED} or {@code EXPIRED}
 * @param createdAt when the session started
 * @param expiresAt when the session expires, or expired
 * @param endedAt when the session was ended with {@code DELETE}, or {@code null}
 */
public record SessionStatus(String id, String userId, String deviceId, int number, String status, Instant createdAt,
		Instant expiresAt, Instant endedAt) {

}
