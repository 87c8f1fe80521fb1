package io.github.idempotency.store;

import java.time.Duration;

/**
 * A store that keeps the sequence numbers of
 * {@link io.github.idempotency.annotation.IdempotentSequence @IdempotentSequence} operations: what
 * they need, checked at start-up.
 */
public interface SequencingIdempotencyStore extends IdempotencyStore {

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
	 */
	SequenceAdvance advanceSequence(String tenant, String scope, long sequence, Duration ttl);

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
