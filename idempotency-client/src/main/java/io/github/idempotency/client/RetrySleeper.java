package io.github.idempotency.client;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Waits between attempts; replace it in tests to record the delays instead of waiting.
 */
@FunctionalInterface
public interface RetrySleeper {

	/**
	 * Wait for the given time.
	 * @param duration how long to wait, never negative
	 * @throws InterruptedException if the thread is interrupted while waiting
	 */
	void sleep(Duration duration) throws InterruptedException;

	/**
	 * Return a sleeper that blocks the calling thread.
	 * @return the sleeper
	 */
	static RetrySleeper threadSleep() {
		return (duration) -> TimeUnit.NANOSECONDS.sleep(duration.toNanos());
	}

}
