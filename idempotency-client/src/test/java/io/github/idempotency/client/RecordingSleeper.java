package io.github.idempotency.client;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link RetrySleeper} that records the delays it is asked for and returns at once, after
 * running an optional hook (e.g. advancing a test clock or releasing a blocked server).
 */
final class RecordingSleeper implements RetrySleeper {

	private final List<Duration> delays = new CopyOnWriteArrayList<>();

	private final Hook hook;

	RecordingSleeper() {
		this((duration) -> {
		});
	}

	RecordingSleeper(Hook hook) {
		this.hook = hook;
	}

	@Override
	public void sleep(Duration duration) throws InterruptedException {
		this.delays.add(duration);
		this.hook.onSleep(duration);
	}

	List<Duration> delays() {
		return List.copyOf(this.delays);
	}

	/**
	 * Runs instead of waiting.
	 */
	@FunctionalInterface
	interface Hook {

		void onSleep(Duration duration) throws InterruptedException;

	}

}
