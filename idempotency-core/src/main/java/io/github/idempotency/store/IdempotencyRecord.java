package io.github.idempotency.store;

import java.time.Instant;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import io.github.idempotency.IdempotencyKey;

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
 * @param attempts how many times the key was claimed to run its operation: 1, plus one for each
 * claim after a release or of a lease that ran out
 * @param lastFailure what the last failed attempt failed with: an exception class name, a
 * transient status such as {@code status 503}, or {@link #LEASE_EXPIRED}; never a message or a
 * body; {@code null} if no attempt failed or the failure was not told
 * @param lastFailureAt when the last attempt failed, by the store's clock, or {@code null}
 */
public record IdempotencyRecord(IdempotencyKey key, RecordStatus status, String fingerprint, UUID token,
		@Nullable Instant lockedUntil, Instant createdAt, @Nullable Instant completedAt, Instant expiresAt,
		@Nullable StoredResponse response, int attempts, @Nullable String lastFailure,
		@Nullable Instant lastFailureAt) {

	/**
	 * The {@link #lastFailure()} of a key whose previous claim's lease ran out, as its request
	 * crashed or hung, and which a retry took over.
	 */
	public static final String LEASE_EXPIRED = "lease expired";

	/**
	 * Create a snapshot of a record claimed once, which never failed.
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
	public IdempotencyRecord(IdempotencyKey key, RecordStatus status, String fingerprint, UUID token,
			@Nullable Instant lockedUntil, Instant createdAt, @Nullable Instant completedAt, Instant expiresAt,
			@Nullable StoredResponse response) {
		this(key, status, fingerprint, token, lockedUntil, createdAt, completedAt, expiresAt, response, 1, null, null);
	}

	public boolean isCompleted() {
		return this.status == RecordStatus.COMPLETED;
	}

}
