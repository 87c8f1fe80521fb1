package io.github.idempotency.store;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;


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
 * @param attempts how many times the key ran
 * @param lastFailure what its last failed attempt failed with, or {@code null}
 * @param lastFailureAt when its last attempt failed, or {@code null}
 * @param references the references attached to the key, the values of each name
 */
public record RecordMetadata(RecordStatus status, String fingerprint, Instant createdAt, Instant lockedUntil,
		Instant completedAt, Instant expiresAt, boolean expired, boolean leaseExpired, Integer responseStatus,
		Long responseBodyBytes, int attempts, @Nullable String lastFailure, @Nullable Instant lastFailureAt,
		Map<String, List<String>> references) {

	/**
	 * Return the same metadata with the references of the key.
	 * @param references the references
	 * @return the metadata
	 */
	public RecordMetadata withReferences(Map<String, List<String>> references) {
		return new RecordMetadata(this.status, this.fingerprint, this.createdAt, this.lockedUntil, this.completedAt,
				this.expiresAt, this.expired, this.leaseExpired, this.responseStatus, this.responseBodyBytes,
				this.attempts, this.lastFailure, this.lastFailureAt, Map.copyOf(references));
	}

}
