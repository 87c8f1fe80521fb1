package io.github.idempotency.engine;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.IdempotencyStore;

/**
 * Extends the leases of LEASED operations while they run, every third of the lease. Each renewal
 * runs on a thread of its own, at most one per claim at a time, so that a renewal stuck on a row
 * lock, a pool or the network delays no other claim's; each claim knows until when its lease is
 * confirmed.
 */
class LeaseHeartbeat implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(LeaseHeartbeat.class);

	private final IdempotencyStore store;

	private final ScheduledThreadPoolExecutor timer;

	private final ExecutorService renewals;

	public LeaseHeartbeat(IdempotencyStore store) {
		this.store = store;
		this.timer = new ScheduledThreadPoolExecutor(1, daemon("idempotency-lease-timer"));
		this.timer.setRemoveOnCancelPolicy(true);
		this.renewals = Executors.newCachedThreadPool(daemon("idempotency-lease-renewal-"));
	}

	/**
	 * Keep extending the lease of a claim until the returned beat is stopped.
	 * @param key the claimed key
	 * @param token the claim's fencing token
	 * @param lease the lease to renew
	 * @return the beat, to stop when the claim ends
	 */
	Beat start(IdempotencyKey key, UUID token, Duration lease) {
		long period = Math.max(1, lease.toMillis() / 3);
		Beat beat = new Beat(lease.toNanos(), TimeUnit.MILLISECONDS.toNanos(period));
		beat.future = this.timer.scheduleAtFixedRate(() -> trigger(beat, key, token, lease), period, period,
				TimeUnit.MILLISECONDS);
		return beat;
	}

	private void trigger(Beat beat, IdempotencyKey key, UUID token, Duration lease) {
		if (beat.stopped) {
			beat.cancel();
			return;
		}
		if (!beat.renewing.compareAndSet(false, true)) {
			logger.warn("{}: the previous lease renewal is still running; its lease is confirmed for {} ms more", key,
					TimeUnit.NANOSECONDS.toMillis(beat.confirmedUntil - System.nanoTime()));
			return;
		}
		try {
			this.renewals.execute(() -> renew(beat, key, token, lease));
		}
		catch (RuntimeException ex) {
			beat.renewing.set(false);
			logger.warn("Could not start the lease renewal of {}", key, ex);
		}
	}

	private void renew(Beat beat, IdempotencyKey key, UUID token, Duration lease) {
		long started = System.nanoTime();
		try {
			if (beat.stopped) {
				return;
			}
			if (this.store.extendLease(key, token, lease)) {
				beat.confirmedUntil = started + beat.leaseNanos;
				logger.debug("{} lease extended by {}", key, lease);
			}
			else if (!beat.stopped) {
				beat.lost = true;
				beat.cancel();
				logger.warn("{} was taken over while it was still running", key);
			}
		}
		catch (RuntimeException ex) {
			logger.warn("Could not extend the lease of {}; its lease is confirmed for {} ms more", key,
					TimeUnit.NANOSECONDS.toMillis(beat.confirmedUntil - System.nanoTime()), ex);
		}
		finally {
			beat.renewing.set(false);
		}
	}

	private static java.util.concurrent.ThreadFactory daemon(String name) {
		AtomicInteger count = new AtomicInteger();
		return (runnable) -> {
			Thread thread = new Thread(runnable,
					name.endsWith("-") ? name + count.incrementAndGet() : name);
			thread.setDaemon(true);
			return thread;
		};
	}

	/**
	 * The heartbeat of one claim; a renewal already under way when it stops finds the claim
	 * ended, which is no takeover.
	 */
	static final class Beat {

		private final long leaseNanos;

		private final long periodNanos;

		private final AtomicBoolean renewing = new AtomicBoolean();

		private volatile long confirmedUntil;

		private volatile boolean lost;

		private volatile boolean stopped;

		private volatile ScheduledFuture<?> future;

		Beat(long leaseNanos, long periodNanos) {
			this.leaseNanos = leaseNanos;
			this.periodNanos = periodNanos;
			this.confirmedUntil = System.nanoTime() + leaseNanos;
		}

		/**
		 * Return whether the lease is still this claim's for at least half a renewal period:
		 * it was never found taken over, and a renewal confirmed it recently enough.
		 * @return whether the lease is held
		 */
		boolean held() {
			return !this.lost && System.nanoTime() < this.confirmedUntil - this.periodNanos / 2;
		}

		void stop() {
			this.stopped = true;
			cancel();
		}

		private void cancel() {
			ScheduledFuture<?> scheduled = this.future;
			if (scheduled != null) {
				scheduled.cancel(false);
			}
		}

	}

	@Override
	public void close() {
		this.timer.shutdownNow();
		this.renewals.shutdownNow();
	}

}
