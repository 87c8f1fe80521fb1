package io.github.idempotency.purge;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.idempotency.store.jdbc.IdempotencySql;

/**
 * Deletes expired records, and reclaims records stuck in progress long past their lease, in
 * bounded batches with a pause between two batches; safe to run on every instance at once, since
 * each batch skips the records another purger or a claim holds, and never deletes a record in
 * progress whose lease is live.
 */
public class IdempotencyPurger {

	private static final Logger logger = LoggerFactory.getLogger(IdempotencyPurger.class);

	private final JdbcPurgeBatch batch;

	private final int batchSize;

	private final Duration pause;

	private final Duration stuckAfter;

	private final List<PurgeListener> listeners;

	/**
	 * Create a purger.
	 * @param dataSource the data source of the idempotency tables
	 * @param sql the statements of its database
	 * @param archivedOperations the operations whose records are archived before they are deleted
	 * @param batchSize the largest number of records one batch deletes
	 * @param pause the pause between two batches of one run
	 * @param stuckAfter how long past its lease a record in progress counts as stuck
	 * @param listeners told about every batch and run
	 */
	public IdempotencyPurger(DataSource dataSource, IdempotencySql sql, Set<String> archivedOperations, int batchSize,
			Duration pause, Duration stuckAfter, List<PurgeListener> listeners) {
		if (batchSize < 1) {
			throw new IllegalArgumentException("The purge batch size must be positive, not " + batchSize);
		}
		if (pause.isNegative() || stuckAfter.isNegative()) {
			throw new IllegalArgumentException("The purge pause and stuck-after must not be negative");
		}
		this.batch = new JdbcPurgeBatch(dataSource, sql, archivedOperations, batchSize, stuckAfter);
		this.batchSize = batchSize;
		this.pause = pause;
		this.stuckAfter = stuckAfter;
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
		while (deleted >= this.batchSize);
	}

	private long batch(PurgeReason reason, Tally tally) {
		long deleted = 0;
		long archived = 0;
		for (PurgedRecords records : this.batch.run(reason)) {
			deleted += records.deleted();
			archived += records.archived();
			if (reason == PurgeReason.STUCK) {
				logger.warn("Reclaimed {} idempotency record(s) of operation '{}' left in progress more than {} "
						+ "past their lease", records.deleted(), records.operation(), this.stuckAfter);
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

}
