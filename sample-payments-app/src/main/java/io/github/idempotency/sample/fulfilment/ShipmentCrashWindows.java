package io.github.idempotency.sample.fulfilment;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Profile;
import org.springframework.kafka.listener.RecordInterceptor;
import org.springframework.stereotype.Component;

import io.github.idempotency.KeyHashes;
import io.github.idempotency.sample.payments.CrashWindowProperties;

/**
 * Holds an order event at a crash window when {@code sample.crash-windows.hold} is set and its
 * customer is marked for that window ({@code hold-before-ship-}, {@code hold-after-ship-},
 * {@code hold-after-commit-}), announcing it in the log so that a crash test knows when to kill.
 * The last window is after the listener's transaction committed and before the container commits
 * the offset (a record interceptor's {@code success}) or acknowledges the message (the RabbitMQ
 * listener, after its {@code @Idempotent} call returned).
 */
@Component
@Profile({ "kafka", "rabbit" })
class ShipmentCrashWindows implements RecordInterceptor<Object, Object> {

	private static final Logger logger = LoggerFactory.getLogger(ShipmentCrashWindows.class);

	static final String BEFORE_SHIP = "before-ship";

	static final String AFTER_SHIP = "after-ship";

	static final String AFTER_COMMIT = "after-commit";

	private final Duration hold;

	ShipmentCrashWindows(CrashWindowProperties properties) {
		this.hold = properties.hold();
	}

	/**
	 * Hold the event at a window if it is marked for it, returning at once otherwise.
	 * @param window the window reached
	 * @param record the event's record
	 */
	void reached(String window, ConsumerRecord<?, ?> record) {
		if (record.value() instanceof OrderPlaced event) {
			Header key = record.headers().lastHeader("Idempotency-Key");
			reached(window, event, (key != null) ? new String(key.value(), StandardCharsets.UTF_8) : null);
		}
	}

	/**
	 * Hold the event at a window if it is marked for it, returning at once otherwise.
	 * @param window the window reached
	 * @param event the event
	 * @param key the key it came with, if any
	 */
	void reached(String window, OrderPlaced event, @Nullable String key) {
		if (this.hold.isZero() || this.hold.isNegative() || !event.customerId().startsWith("hold-" + window + "-")) {
			return;
		}
		String hash = (key != null) ? KeyHashes.shortHash(key) : "none";
		logger.info("Crash window {}: holding order event of key #{} for {}", window, hash, this.hold);
		try {
			Thread.sleep(this.hold.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public @Nullable ConsumerRecord<Object, Object> intercept(ConsumerRecord<Object, Object> record,
			Consumer<Object, Object> consumer) {
		return record;
	}

	@Override
	public void success(ConsumerRecord<Object, Object> record, Consumer<Object, Object> consumer) {
		reached(AFTER_COMMIT, record);
	}

}
