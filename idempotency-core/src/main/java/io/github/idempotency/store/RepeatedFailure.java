package io.github.idempotency.store;

import java.time.Instant;

import org.jspecify.annotations.Nullable;


/**
 * A key that ran more than once, as an operator may see it: hashed, never the raw key.
 *
 * @param operation the operation
 * @param keyHash the short hash of the key, as logged
 * @param status the status of its record: {@code RELEASED} while it waits for a retry
 * @param attempts how many times it ran
 * @param lastFailure what its last failed attempt failed with: a class name or a status
 * @param lastFailureAt when its last attempt failed
 */
public record RepeatedFailure(String operation, String keyHash, RecordStatus status, int attempts,
		@Nullable String lastFailure, @Nullable Instant lastFailureAt) {

}
