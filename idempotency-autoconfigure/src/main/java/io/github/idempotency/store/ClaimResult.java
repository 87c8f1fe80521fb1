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
	 */
	record Claimed(UUID token, boolean takenOver) implements ClaimResult {
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
