package io.github.idempotency.store;

import java.time.Instant;

/**
 * What an operator may see of one record: its state and times, never the stored response body.
 *
 * @param status the status
 * @param fingerprint the fingerprint of the request that claimed the key
 * @param createdAt when the key was claimed
 * @param lockedUntil when the lease of a record in progress runs out, or {@code null}
 * @param completedAt when the response was stored, or {@code null}
 * @param expiresAt when the record stops counting
 * @param expired whether the record has expired, by the store's clock
 * @param leaseExpired whether the record is in progress and its lease has run out
 * @param responseStatus the stored response status, or {@code null}
 * @param responseBodyBytes the size of the stored response body, or {@code null}
 */
public record RecordMetadata(RecordStatus status, String fingerprint, Instant createdAt, Instant lockedUntil,
		Instant completedAt, Instant expiresAt, boolean expired, boolean leaseExpired, Integer responseStatus,
		Long responseBodyBytes) {

}
