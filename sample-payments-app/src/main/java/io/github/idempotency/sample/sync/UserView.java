package io.github.idempotency.sample.sync;

import java.time.Instant;
import java.util.SortedMap;

/**
 * A user as the sync API answers it.
 *
 * @param id the user id
 * @param email the email address
 * @param displayName the display name, or {@code null}
 * @param consents the current consent per purpose, from the latest change of each
 * @param version the version, the {@code baseVersion} of the next update built on it
 * @param updatedAt when the email address or display name last changed
 */
public record UserView(String id, String email, String displayName, SortedMap<String, Boolean> consents, long version,
		Instant updatedAt) {

}
