package io.github.idempotency.store;

import java.time.Duration;
import java.util.List;
import java.util.Map;
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

	/**
	 * Return whether this store keeps the sequence numbers of
	 * {@link io.github.idempotency.annotation.IdempotentSequence @IdempotentSequence} operations
	 * with {@link #advanceSequence}.
	 * @return {@code false} unless overridden
	 */
	default boolean supportsSequences() {
		return false;
	}

	/**
	 * Advance the highest processed sequence number of a scope in one atomic conditional write,
	 * never a read then a write, deciding time with the store's clock: to {@code sequence} if it
	 * is at least the scope's highest number, or the scope is unknown or expired; otherwise
	 * nothing changes. An accepted number keeps the scope until {@code ttl} from now. Inside a
	 * transaction of the store's own database the write takes part in it.
	 * @param tenant the tenant the scope belongs to
	 * @param scope the scope
	 * @param sequence the sequence number, zero or more
	 * @param ttl how long the scope is kept after an accepted number
	 * @return whether the number was accepted, and the scope's highest number
	 * @throws UnsupportedOperationException if the store does not keep sequence numbers, which is
	 * the default
	 */
	default SequenceAdvance advanceSequence(String tenant, String scope, long sequence, Duration ttl) {
		throw new UnsupportedOperationException(getClass().getName() + " does not keep sequence numbers");
	}

	/**
	 * Return whether this store keeps the references business code attaches to keys with
	 * {@link io.github.idempotency.IdempotencyContext#reference}.
	 * @return {@code false} unless overridden
	 */
	default boolean supportsReferences() {
		return false;
	}

	/**
	 * Attach a reference to a claimed key at once; attaching the same name and value again
	 * changes nothing. The reference is kept while the key's record lives (released and completed
	 * too) and goes with it: a claim that replaces an expired record forgets the references of the
	 * record it replaces. A store may keep a reference whose record is gone for {@code ttl} from
	 * now, such as one that an ATOMIC rollback left without a record.
	 * @param key the key
	 * @param name the kind of reference, 1 to 64 characters {@code [a-z0-9_.-]}
	 * @param value the reference, 1 to 255 characters
	 * @param ttl how long the reference is kept at least, from now
	 * @throws UnsupportedOperationException if the store keeps no references, which is the
	 * default
	 */
	default void addReference(IdempotencyKey key, String name, String value, Duration ttl) {
		throw new UnsupportedOperationException(getClass().getName() + " keeps no references");
	}

	/**
	 * Return the references attached to a key.
	 * @param key the key
	 * @return the values of each name, names and values in their natural order; empty if none
	 */
	default Map<String, List<String>> references(IdempotencyKey key) {
		return Map.of();
	}

	/**
	 * Return the keys a reference is attached to, oldest attachment first.
	 * @param name the kind of reference
	 * @param value the reference
	 * @param limit how many keys to return at most
	 * @return the keys
	 * @throws UnsupportedOperationException if the store keeps no references, which is the
	 * default
	 */
	default List<IdempotencyKey> findByReference(String name, String value, int limit) {
		throw new UnsupportedOperationException(getClass().getName() + " keeps no references");
	}

	/**
	 * The answer of {@link #advanceSequence}.
	 *
	 * @param accepted whether the number was at least the scope's highest, which it now is
	 * @param highest the scope's highest processed number: the number given when it was accepted,
	 * a higher one when it was refused
	 */
	record SequenceAdvance(boolean accepted, long highest) {
	}

}
