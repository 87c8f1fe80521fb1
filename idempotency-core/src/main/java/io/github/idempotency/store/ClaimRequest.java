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
 * @param inTransaction whether the claim is made inside the operation's transaction (ATOMIC),
 * which the store joins and must write nothing outside of: its locks are held until that
 * transaction ends, and a claim outside a transaction commits durably on its own
 */
public record ClaimRequest(IdempotencyKey key, String fingerprint, Duration lease, Duration ttl, boolean archive,
		boolean inTransaction) {

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
		this(key, fingerprint, lease, ttl, false, false);
	}

	/**
	 * Create a claim outside any transaction.
	 * @param key the key to claim
	 * @param fingerprint the request fingerprint
	 * @param lease how long the claim is exclusive before a retry may take it over
	 * @param ttl how long the record is kept
	 * @param archive whether an expired record that the claim replaces is archived first
	 */
	public ClaimRequest(IdempotencyKey key, String fingerprint, Duration lease, Duration ttl, boolean archive) {
		this(key, fingerprint, lease, ttl, archive, false);
	}

	/**
	 * Return this claim inside the operation's transaction.
	 * @return the claim
	 */
	public ClaimRequest insideTransaction() {
		return new ClaimRequest(this.key, this.fingerprint, this.lease, this.ttl, this.archive, true);
	}

	/**
	 * Return this claim outside any transaction.
	 * @return the claim
	 */
	public ClaimRequest outsideTransaction() {
		return new ClaimRequest(this.key, this.fingerprint, this.lease, this.ttl, this.archive, false);
	}

}
