package io.github.idempotency.store;

import java.time.Instant;
import java.util.UUID;

import io.github.idempotency.core.IdempotencyKey;

/**
 * A snapshot of one stored idempotency record.
 *
 * @param key the key
 * @param status the status
 * @param fingerprint the fingerprint of the request that claimed the key
 * @param token the fencing token of the current claim
 * @param lockedUntil when the lease of a record in progress runs out
 * @param createdAt when the key was claimed
 * @param completedAt when the response was stored, or {@code null}
 * @param expiresAt when the record stops counting
 * @param response the stored response of a completed record, or {@code null}
 */
public record IdempotencyRecord(IdempotencyKey key, RecordStatus status, String fingerprint, UUID token,
		Instant lockedUntil, Instant createdAt, Instant completedAt, Instant expiresAt, StoredResponse response) {

	public boolean isCompleted() {
		return this.status == RecordStatus.COMPLETED;
	}

}
