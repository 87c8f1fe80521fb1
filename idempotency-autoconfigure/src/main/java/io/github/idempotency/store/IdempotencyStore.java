package io.github.idempotency.store;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

import io.github.idempotency.core.IdempotencyKey;

/**
 * Durable record of idempotency keys shared by every application instance. Every decision about
 * time is made with the store's own clock, never the JVM's.
 */
public interface IdempotencyStore {

	/**
	 * Claim a key in one atomic conditional write: a key that is absent, expired, or whose lease
	 * ran out for the same fingerprint is claimed with a new fencing token; otherwise the live
	 * record is returned.
	 * @param request what to claim
	 * @return the claim, or the live record that prevented it
	 */
	ClaimResult claim(ClaimRequest request);

	/**
	 * Store the response of a claimed key, compare-and-set on its fencing token.
	 * @param key the key
	 * @param token the fencing token the claim returned
	 * @param response the response to replay from now on
	 * @param ttl how long from now the record is kept
	 * @return {@code false} if the claim was taken over and nothing was written
	 */
	boolean complete(IdempotencyKey key, UUID token, StoredResponse response, Duration ttl);

	/**
	 * Delete a claimed key so that a retry runs again, compare-and-set on its fencing token.
	 * @param key the key
	 * @param token the fencing token the claim returned
	 * @return {@code false} if the claim was taken over and nothing was deleted
	 */
	boolean release(IdempotencyKey key, UUID token);

	/**
	 * Push the lease of a claimed key to now plus the given duration.
	 * @param key the key
	 * @param token the fencing token the claim returned
	 * @param lease the new lease, from now
	 * @return {@code false} if the claim was taken over
	 */
	boolean extendLease(IdempotencyKey key, UUID token, Duration lease);

	/**
	 * Return the record of a key as stored, expired or not.
	 * @param key the key
	 * @return the record, if any
	 */
	Optional<IdempotencyRecord> find(IdempotencyKey key);

}
