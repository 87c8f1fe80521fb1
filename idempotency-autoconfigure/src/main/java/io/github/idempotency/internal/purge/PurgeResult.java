package io.github.idempotency.internal.purge;

import java.time.Duration;

/**
 * What one purge run did on this instance.
 *
 * @param expired how many expired records it deleted
 * @param stuck how many records stuck in progress it reclaimed
 * @param archived how many of the deleted records it copied to the archive table first
 * @param batches how many batches it ran
 * @param duration how long it took, pauses included
 */
public record PurgeResult(long expired, long stuck, long archived, int batches, Duration duration) {

	/**
	 * Return how many records the run deleted.
	 * @return the expired and the stuck records
	 */
	public long deleted() {
		return this.expired + this.stuck;
	}

}
