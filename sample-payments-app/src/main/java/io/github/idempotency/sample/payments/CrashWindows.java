package io.github.idempotency.sample.payments;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import io.github.idempotency.KeyHashes;

/**
 * Holds a payment at a crash window when {@code sample.crash-windows.hold} is set and its
 * customer is marked for that window, announcing it in the log so that a test knows when to kill.
 */
@Component
class CrashWindows {

	private static final Logger logger = LoggerFactory.getLogger(CrashWindows.class);

	private final Duration hold;

	CrashWindows(CrashWindowProperties properties) {
		this.hold = properties.hold();
	}

	/**
	 * Hold the payment at a window if it is marked for it, returning at once otherwise.
	 * @param window the window reached
	 * @param payment the payment
	 */
	void reached(Window window, Payment payment) {
		if (this.hold.isZero() || this.hold.isNegative() || !payment.getCustomerId().startsWith(window.prefix)) {
			return;
		}
		logger.info("Crash window {}: holding payment of key #{} for {}", window.name,
				KeyHashes.shortHash(payment.getIdempotencyKey()), this.hold);
		try {
			Thread.sleep(this.hold.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * The points of a payment where a crash leaves a different state behind.
	 */
	enum Window {

		/**
		 * The key is claimed and the payment recorded as pending; the gateway has not been called.
		 */
		BEFORE_CHARGE("before-charge"),

		/**
		 * The gateway has committed the charge; the payment does not know it yet.
		 */
		AFTER_CHARGE("after-charge"),

		/**
		 * The payment is settled; the response is not stored yet.
		 */
		AFTER_SETTLE("after-settle");

		private final String name;

		private final String prefix;

		Window(String name) {
			this.name = name;
			this.prefix = "hold-" + name + "-";
		}

	}

}
