package io.github.idempotency.store;

import java.time.Duration;
import java.util.UUID;

/**
 * The answer of {@link IdempotencyStore#claim}: either the key is now ours, or a live record holds
 * it.
 */
public sealed interface ClaimResult permits ClaimResult.Claimed, ClaimResult.Existing {

	/**
	 * The key was claimed.
	 *
	 * @param token the new fencing token
	 * @param takenOver whether an earlier claim whose lease ran out was taken over
	 * @param attempt which run of the key's operation this claim starts: 1 for a key that was
	 * absent or had expired, one more than the released or taken-over record's attempts otherwise
	 */
	record Claimed(UUID token, boolean takenOver, int attempt) implements ClaimResult {

		/**
		 * Create the first claim of a key.
		 * @param token the new fencing token
		 * @param takenOver whether an earlier claim whose lease ran out was taken over
		 */
		public Claimed(UUID token, boolean takenOver) {
			this(token, takenOver, 1);
		}

	}

	/**
	 * A live record holds the key.
	 *
	 * @param record the record
	 * @param leaseRemaining for a record in progress, how long until its lease runs out, by the
	 * store's clock; zero otherwise
	 */
	record Existing(IdempotencyRecord record, Duration leaseRemaining) implements ClaimResult {
	}

}
