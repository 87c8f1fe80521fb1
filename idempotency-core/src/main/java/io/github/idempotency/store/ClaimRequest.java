package io.github.idempotency.store;

import java.time.Duration;
import java.util.Objects;

import io.github.idempotency.IdempotencyKey;

/**
 * What a request asks of {@link IdempotencyStore#claim}.
 *
 * @param key the key to claim
 * @param fingerprint the request fingerprint
 * @param lease how long the claim is exclusive before a retry may take it over
 * @param ttl how long the record is kept
 * @param archive whether an expired record that the claim replaces is archived first
 */
public record ClaimRequest(IdempotencyKey key, String fingerprint, Duration lease, Duration ttl, boolean archive) {

	public ClaimRequest {
		Objects.requireNonNull(key, "key");
		Objects.requireNonNull(fingerprint, "fingerprint");
		Objects.requireNonNull(lease, "lease");
		Objects.requireNonNull(ttl, "ttl");
	}

	/**
	 * Create a claim of an operation whose records are not archived.
	 * @param key the key to claim
	 * @param fingerprint the request fingerprint
	 * @param lease how long the claim is exclusive before a retry may take it over
	 * @param ttl how long the record is kept
	 */
	public ClaimRequest(IdempotencyKey key, String fingerprint, Duration lease, Duration ttl) {
		this(key, fingerprint, lease, ttl, false);
	}

}
