package io.github.idempotency.jdbc;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;


/**
 * Deletes expired records, and reclaims records stuck in progress long past their lease, in
 * bounded batches with a pause between two batches; safe to run on every instance at once, since
 * each batch skips the records another purger or a claim holds, and never deletes a record in
 * progress whose lease is live.
 */
public class IdempotencyPurger {

	private static final Logger logger = LoggerFactory.getLogger(IdempotencyPurger.class);

	private final JdbcPurgeBatch batch;

	private final Duration pause;

	private final List<PurgeListener> listeners;

	/**
	 * Create a purger.
	 * @param batch the batches it runs
	 * @param pause the pause between two batches of one run
	 * @param listeners told about every batch and run
	 */
	IdempotencyPurger(JdbcPurgeBatch batch, Duration pause, List<PurgeListener> listeners) {
		if (pause.isNegative()) {
			throw new IllegalArgumentException("The purge pause must not be negative");
		}
		this.batch = batch;
		this.pause = pause;
		this.listeners = List.copyOf(listeners);
	}

	/**
	 * Purge until no expired or stuck record is left, or until the thread is interrupted.
	 * @return what this run did
	 */
	public PurgeResult purge() {
		long start = System.nanoTime();
		Tally tally = new Tally();
		try {
			purge(PurgeReason.EXPIRED, tally);
			purge(PurgeReason.STUCK, tally);
			purgeSequences(tally);
			purgeOrphanReferences(tally);
		}
		finally {
			tally.duration = Duration.ofNanos(System.nanoTime() - start);
			for (PurgeListener listener : this.listeners) {
				listener.onRunFinished(tally.result());
			}
		}
		PurgeResult result = tally.result();
		logger.debug("Purge run deleted {} expired and {} stuck record(s), archived {}, in {} batch(es) and {}",
				result.expired(), result.stuck(), result.archived(), result.batches(), result.duration());
		return result;
	}

	private void purge(PurgeReason reason, Tally tally) {
		long deleted;
		do {
			if (tally.batches > 0 && !pause()) {
				return;
			}
			deleted = batch(reason, tally);
		}
		while (deleted >= this.batch.batchSize());
	}

	/**
	 * Delete the expired scopes of sequence numbers, which are not records: they count in no meter.
	 */
	private void purgeSequences(Tally tally) {
		long deleted = 0;
		int batch;
		do {
			if (tally.batches > 0 && !pause()) {
				return;
			}
			batch = this.batch.purgeExpiredSequences();
			deleted += batch;
		}
		while (batch >= this.batch.batchSize());
		logger.debug("Purge run deleted {} expired sequence scope(s)", deleted);
	}

	/**
	 * Delete the expired references whose record is gone (the purge deletes the others with their
	 * record), which are not records: they count in no meter.
	 */
	private void purgeOrphanReferences(Tally tally) {
		long deleted = 0;
		long batch;
		do {
			if (tally.batches > 0 && !pause()) {
				return;
			}
			batch = this.batch.purgeOrphanReferences();
			deleted += batch;
		}
		while (batch >= this.batch.batchSize());
		logger.debug("Purge run deleted {} expired reference(s) without a record", deleted);
	}

	private long batch(PurgeReason reason, Tally tally) {
		long deleted = 0;
		long archived = 0;
		for (PurgedRecords records : (reason == PurgeReason.STUCK) ? this.batch.purgeStuck()
				: this.batch.purgeExpired()) {
			deleted += records.deleted();
			archived += records.archived();
			if (reason == PurgeReason.STUCK) {
				logger.warn("Reclaimed {} idempotency record(s) of operation '{}' left in progress more than {} "
						+ "past their lease", records.deleted(), records.operation(), this.batch.stuckAfter());
			}
		}
		tally.add(reason, deleted, archived);
		for (PurgeListener listener : this.listeners) {
			listener.onBatch(reason, deleted, archived);
		}
		logger.debug("Purge batch deleted {} {} record(s), archived {}", deleted, reason.tag(), archived);
		return deleted;
	}

	private boolean pause() {
		if (this.pause.isZero()) {
			return !Thread.currentThread().isInterrupted();
		}
		try {
			TimeUnit.NANOSECONDS.sleep(this.pause.toNanos());
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * The running totals of one run.
	 */
	private static final class Tally {

		long expired;

		long stuck;

		long archived;

		int batches;

		Duration duration = Duration.ZERO;

		void add(PurgeReason reason, long deleted, long archived) {
			this.batches++;
			if (reason == PurgeReason.EXPIRED) {
				this.expired += deleted;
			}
			else {
				this.stuck += deleted;
			}
			this.archived += archived;
		}

		PurgeResult result() {
			return new PurgeResult(this.expired, this.stuck, this.archived, this.batches, this.duration);
		}

	}

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

	/**
	 * Why the purge deleted a record, as reported in the {@code reason} tag of
	 * {@code idempotency.purge.deleted}.
	 */
	public enum PurgeReason {

		/**
		 * The record was completed and its time to live has passed.
		 */
		EXPIRED,

		/**
		 * The record was left in progress, by a request that never finished and was never retried,
		 * for longer than {@code idempotency.purge.stuck-after} past its lease.
		 */
		STUCK;

		private final String tag = name().toLowerCase(Locale.ROOT);

		/**
		 * Return the value of the {@code reason} tag.
		 * @return the tag value, such as {@code expired}
		 */
		public String tag() {
			return this.tag;
		}

	}

	/**
	 * Callback for what the purge does, such as metrics; every method has a no-op default.
	 */
	public interface PurgeListener {

		/**
		 * A listener that does nothing.
		 */
		PurgeListener NONE = new PurgeListener() {
		};

		/**
		 * One batch committed.
		 * @param reason why its records were deleted
		 * @param deleted how many records it deleted
		 * @param archived how many of them it copied to the archive table first
		 */
		default void onBatch(PurgeReason reason, long deleted, long archived) {
		}

		/**
		 * A purge run ended, however it ended.
		 * @param result what it did
		 */
		default void onRunFinished(PurgeResult result) {
		}

	}

}
