package io.github.idempotency.engine;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

/**
 * Limits, per tenant and per application instance, how many new keys may be claimed in each
 * interval and how many claimed keys may run at once, so that one client cannot flood the key
 * space; a limit of zero or less is no limit.
 */
final class KeySpaceGuard {

	private static final int MAX_IDLE_TENANTS = 10_000;

	private final int newKeysPerInterval;

	private final long intervalNanos;

	private final int inFlight;

	private final LongSupplier nanoTime;

	private final Map<String, Window> windows = new ConcurrentHashMap<>();

	private final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();

	/**
	 * Create a guard.
	 * @param newKeysPerInterval the new keys a tenant may claim per interval, or zero for no limit
	 * @param interval the interval
	 * @param inFlight the claimed keys of a tenant that may run at once, or zero for no limit
	 */
	public KeySpaceGuard(int newKeysPerInterval, Duration interval, int inFlight) {
		this(newKeysPerInterval, interval, inFlight, System::nanoTime);
	}

	KeySpaceGuard(int newKeysPerInterval, Duration interval, int inFlight, LongSupplier nanoTime) {
		this.newKeysPerInterval = newKeysPerInterval;
		this.intervalNanos = Math.max(1, interval.toNanos());
		this.inFlight = inFlight;
		this.nanoTime = nanoTime;
	}

	/**
	 * Reserve a new key and a place in flight for a tenant.
	 * @param tenant the tenant
	 * @return the permit, to {@link Permit#refund() refund} if no key was claimed with it and to
	 * {@link Permit#close() close} when the claimed key's execution ends; or {@code null} when the
	 * tenant is at one of its limits
	 */
	@Nullable Permit tryAcquire(String tenant) {
		long now = this.nanoTime.getAsLong();
		Window window = null;
		evictIdle(now);
		if (this.newKeysPerInterval > 0) {
			window = this.windows.computeIfAbsent(tenant, (name) -> new Window());
			if (!window.tryTake(now, this.intervalNanos, this.newKeysPerInterval)) {
				return null;
			}
		}
		AtomicInteger runningNow = null;
		if (this.inFlight > 0) {
			runningNow = this.running.computeIfAbsent(tenant, (name) -> new AtomicInteger());
			if (runningNow.incrementAndGet() > this.inFlight) {
				runningNow.decrementAndGet();
				if (window != null) {
					window.giveBack();
				}
				return null;
			}
		}
		return new Permit(window, runningNow);
	}

	/**
	 * Return how long until a tenant at its limit can claim a new key again.
	 * @param tenant the tenant
	 * @return the delay, at least a second
	 */
	Duration retryAfter(String tenant) {
		Window window = this.windows.get(tenant);
		if (window == null || this.newKeysPerInterval <= 0) {
			return Duration.ofSeconds(1);
		}
		long left = window.start + this.intervalNanos - this.nanoTime.getAsLong();
		return (left > Duration.ofSeconds(1).toNanos()) ? Duration.ofNanos(left) : Duration.ofSeconds(1);
	}

	private void evictIdle(long now) {
		if (this.windows.size() > MAX_IDLE_TENANTS) {
			this.windows.values().removeIf((window) -> now - window.start >= this.intervalNanos);
		}
		if (this.running.size() > MAX_IDLE_TENANTS) {
			this.running.values().removeIf((count) -> count.get() <= 0);
		}
	}

	/**
	 * The current interval of one tenant: when it started and how many new keys it claimed.
	 */
	private static final class Window {

		private long start = Long.MIN_VALUE;

		private int taken;

		synchronized boolean tryTake(long now, long intervalNanos, int limit) {
			if (this.start == Long.MIN_VALUE || now - this.start >= intervalNanos) {
				this.start = now;
				this.taken = 0;
			}
			if (this.taken >= limit) {
				return false;
			}
			this.taken++;
			return true;
		}

		synchronized void giveBack() {
			if (this.taken > 0) {
				this.taken--;
			}
		}

	}

	/**
	 * A tenant's reservation of one new key and one place in flight.
	 */
	static final class Permit implements AutoCloseable {

		private final @Nullable Window window;

		private final @Nullable AtomicInteger running;

		private boolean released;

		private Permit(@Nullable Window window, @Nullable AtomicInteger running) {
			this.window = window;
			this.running = running;
		}

		/**
		 * Give the reservation back: the request claimed no new key.
		 */
		synchronized void refund() {
			if (this.window != null && !this.released) {
				this.window.giveBack();
			}
			close();
		}

		/**
		 * Free the place in flight: the claimed key's execution ended.
		 */
		@Override
		public synchronized void close() {
			if (this.released) {
				return;
			}
			this.released = true;
			if (this.running != null) {
				this.running.decrementAndGet();
			}
		}

	}

}
