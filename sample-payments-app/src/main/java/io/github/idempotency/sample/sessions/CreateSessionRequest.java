package io.github.idempotency.sample.sessions;

/**
 * The body of {@code POST /sessions}.
 *
 * @param userId the user who signs in
 * @param deviceId the device the user signs in on
 */
public record CreateSessionRequest(String userId, String deviceId) {

}
