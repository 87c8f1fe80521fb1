package io.github.idempotency.core;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.idempotency.store.IdempotencyStore;

/**
 * Extends the leases of LEASED operations while they run, every third of the lease, so that a slow
 * but live request is never taken over.
 */
public class LeaseHeartbeat implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(LeaseHeartbeat.class);

	private final IdempotencyStore store;

	private final ScheduledThreadPoolExecutor scheduler;

	public LeaseHeartbeat(IdempotencyStore store) {
		this.store = store;
		this.scheduler = new ScheduledThreadPoolExecutor(1, (runnable) -> {
			Thread thread = new Thread(runnable, "idempotency-lease-heartbeat");
			thread.setDaemon(true);
			return thread;
		});
		this.scheduler.setRemoveOnCancelPolicy(true);
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
		Beat beat = new Beat();
		beat.future = this.scheduler.scheduleAtFixedRate(() -> beat(beat, key, token, lease), period, period,
				TimeUnit.MILLISECONDS);
		return beat;
	}

	private void beat(Beat beat, IdempotencyKey key, UUID token, Duration lease) {
		if (beat.stopped) {
			throw new LeaseLostSignal();
		}
		try {
			if (!this.store.extendLease(key, token, lease)) {
				if (!beat.stopped) {
					logger.warn("{} was taken over while it was still running", key);
				}
				throw new LeaseLostSignal();
			}
			logger.debug("{} lease extended by {}", key, lease);
		}
		catch (LeaseLostSignal ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			logger.warn("Could not extend the lease of {}; retrying at the next beat", key, ex);
		}
	}

	/**
	 * The heartbeat of one claim; a beat already under way when it stops finds the claim ended,
	 * which is no takeover.
	 */
	static final class Beat {

		private volatile boolean stopped;

		private volatile ScheduledFuture<?> future;

		void stop() {
			this.stopped = true;
			ScheduledFuture<?> scheduled = this.future;
			if (scheduled != null) {
				scheduled.cancel(false);
			}
		}

	}

	@Override
	public void close() {
		this.scheduler.shutdownNow();
	}

	/**
	 * Ends a periodic beat: a scheduled task that throws is not run again.
	 */
	private static final class LeaseLostSignal extends RuntimeException {

		LeaseLostSignal() {
			super(null, null, false, false);
		}

	}

}
