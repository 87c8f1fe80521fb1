package io.github.idempotency.actuate;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;

import io.github.idempotency.store.IdempotencyRecordAdministration;
import io.github.idempotency.store.RecordCounts;

/**
 * Gauges of what the store holds (records stuck in progress, expired records awaiting the purge)
 * and of whether it answers, from one count that a thread of their own refreshes when they are
 * read and their count is older than the refresh interval; never on the request path.
 */
class IdempotencyRecordMetrics implements DisposableBean {

	/**
	 * Gauge of the records in progress past their lease that no retry took over, in the store.
	 */
	public static final String STUCK = "idempotency.records.stuck";

	/**
	 * Gauge of the records past their expiry that the purge has not deleted yet, in the store.
	 */
	public static final String EXPIRED = "idempotency.records.expired";

	/**
	 * Gauge that is 1 when the last count of the records succeeded and 0 when the store could not
	 * answer it.
	 */
	public static final String STORE_UP = "idempotency.store.up";

	private static final Logger logger = LoggerFactory.getLogger(IdempotencyRecordMetrics.class);

	/**
	 * The least time a count may run before the store counts as not answering, so that a database
	 * that hangs instead of refusing connections reads as down too.
	 */
	private static final long MIN_UNANSWERED_NANOS = Duration.ofSeconds(30).toNanos();

	private final IdempotencyRecordAdministration administration;

	private final long refreshNanos;

	private final long unansweredNanos;

	private final ExecutorService refresher = Executors.newSingleThreadExecutor((task) -> {
		Thread thread = new Thread(task, "idempotency-record-gauges");
		thread.setDaemon(true);
		return thread;
	});

	private final AtomicBoolean refreshing = new AtomicBoolean();

	private volatile long refreshStartedAt;

	private volatile Counts counts = Counts.UNKNOWN;

	public IdempotencyRecordMetrics(MeterRegistry registry, IdempotencyRecordAdministration administration,
			Duration refreshInterval) {
		this.administration = administration;
		this.refreshNanos = refreshInterval.toNanos();
		this.unansweredNanos = Math.max(this.refreshNanos, MIN_UNANSWERED_NANOS);
		Gauge.builder(STUCK, this, (metrics) -> metrics.current().stuck())
			.description("Idempotency records in progress past their lease that no retry took over")
			.strongReference(true)
			.register(registry);
		Gauge.builder(EXPIRED, this, (metrics) -> metrics.current().expired())
			.description("Idempotency records past their expiry that the purge has not deleted yet")
			.strongReference(true)
			.register(registry);
		Gauge.builder(STORE_UP, this, (metrics) -> metrics.current().up())
			.description("Whether the idempotency store answered the last count of its records (1) or not (0)")
			.strongReference(true)
			.register(registry);
	}

	/**
	 * Return the last counts, starting a refresh if they are older than the refresh interval and
	 * none is running; NaN until the first refresh has finished, and down while a refresh has
	 * gone unanswered for longer than the interval (30 s at least).
	 */
	private Counts current() {
		Counts current = this.counts;
		if (current.olderThan(this.refreshNanos) && this.refreshing.compareAndSet(false, true)) {
			this.refreshStartedAt = System.nanoTime();
			try {
				this.refresher.execute(this::refresh);
			}
			catch (RejectedExecutionException ex) {
				this.refreshing.set(false);
			}
		}
		else if (this.refreshing.get() && System.nanoTime() - this.refreshStartedAt > this.unansweredNanos) {
			return Counts.unanswered();
		}
		return current;
	}

	private void refresh() {
		try {
			List<RecordCounts> byOperation = this.administration.countByOperation();
			this.counts = new Counts(byOperation.stream().mapToLong(RecordCounts::stuck).sum(),
					byOperation.stream().mapToLong(RecordCounts::expired).sum(), 1, System.nanoTime());
		}
		catch (RuntimeException ex) {
			logger.debug("Could not count the idempotency records", ex);
			this.counts = Counts.unanswered();
		}
		finally {
			this.refreshing.set(false);
		}
	}

	@Override
	public void destroy() {
		this.refresher.shutdownNow();
	}

	/**
	 * One count of the records, and when it was taken.
	 */
	private record Counts(double stuck, double expired, double up, long takenAt) {

		static final Counts UNKNOWN = new Counts(Double.NaN, Double.NaN, Double.NaN, 0);

		static Counts unanswered() {
			return new Counts(Double.NaN, Double.NaN, 0, System.nanoTime());
		}

		boolean olderThan(long nanos) {
			return this == UNKNOWN || System.nanoTime() - this.takenAt >= nanos;
		}

	}

}
