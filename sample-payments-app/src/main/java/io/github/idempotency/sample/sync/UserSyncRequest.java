package io.github.idempotency.sample.sync;

import java.util.Map;

/**
 * The body of {@code PUT /sync/users/{id}}: the user as the shop has it, and the version of ours
 * that the shop's change was built on.
 *
 * @param baseVersion the version the update was built on: {@code 0} for a user we do not have yet,
 * else the {@code version} last read from us
 * @param email the user's email address
 * @param displayName the user's display name, or {@code null}
 * @param consents the user's consent per purpose, such as {@code {"marketing": true}}; a purpose
 * left out keeps its consent
 */
public record UserSyncRequest(Long baseVersion, String email, String displayName, Map<String, Boolean> consents) {

}
