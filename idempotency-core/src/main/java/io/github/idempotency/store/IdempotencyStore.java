package io.github.idempotency.store;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import io.github.idempotency.IdempotencyKey;

/**
 * Durable record of idempotency keys shared by every application instance. Every decision about
 * time is made with the store's own clock, never the JVM's.
 */
public interface IdempotencyStore {

	/**
	 * Claim a key in one atomic conditional write: a key that is absent, expired, released, or
	 * whose lease ran out for the same fingerprint is claimed with a new fencing token; otherwise
	 * the live record is returned. A claim of a released key or of a run-out lease counts one more
	 * attempt and keeps the last failure; a claim of an absent or expired key starts at attempt 1.
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
	 * As {@link #complete}, for a completion that no transaction holds (a LEASED call outside any
	 * transaction, or one stored after its caller's commit), which a store may therefore write
	 * together with others that arrive at the same time; it is durable when this returns. The
	 * default calls {@link #complete}.
	 * @param key the key
	 * @param token the fencing token the claim returned
	 * @param response the response to replay from now on
	 * @param ttl how long from now the record is kept
	 * @return {@code false} if the claim was taken over and nothing was written
	 */
	default boolean completeOutsideTransaction(IdempotencyKey key, UUID token, StoredResponse response,
			Duration ttl) {
		return complete(key, token, response, ttl);
	}

	/**
	 * Give a claimed key up so that a retry runs again, compare-and-set on its fencing token, as
	 * {@link #release(IdempotencyKey, UUID, String)} with a failure that was not told.
	 * @param key the key
	 * @param token the fencing token the claim returned
	 * @return {@code false} if the claim was taken over and nothing was changed
	 */
	boolean release(IdempotencyKey key, UUID token);

	/**
	 * Give a claimed key up after a transient failure so that a retry runs again, compare-and-set
	 * on its fencing token: the record becomes {@link RecordStatus#RELEASED}, which a claim treats
	 * as absent, and keeps its attempts, the failure and its time (the store's clock) until it
	 * expires, as long after the release as the claim's TTL.
	 * <p>
	 * The default forgets the failure and calls {@link #release(IdempotencyKey, UUID)}, for stores
	 * written before failures were kept; the stores of the starter override it.
	 * @param key the key
	 * @param token the fencing token the claim returned
	 * @param failure what failed: an exception class name or a transient status such as
	 * {@code status 503}, never a message or a body; {@code null} if not told
	 * @return {@code false} if the claim was taken over and nothing was changed
	 */
	default boolean release(IdempotencyKey key, UUID token, @Nullable String failure) {
		return release(key, token);
	}

	/**
	 * Push the lease of a claimed key to now plus the given duration.
	 * @param key the key
	 * @param token the fencing token the claim returned
	 * @param lease the new lease, from now
	 * @return {@code false} if the claim was taken over
	 */
	boolean extendLease(IdempotencyKey key, UUID token, Duration lease);

	/**
	 * Return the record of a key as stored, expired or released or not.
	 * @param key the key
	 * @return the record, if any
	 */
	Optional<IdempotencyRecord> find(IdempotencyKey key);

}
