package io.github.idempotency.sample.orders;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.modulith.events.EventExternalizationConfiguration;
import org.springframework.modulith.events.RoutingTarget;

import io.github.idempotency.KeyHashes;
import io.github.idempotency.sample.payments.CrashWindowProperties;

/**
 * The transactional outbox of the {@code kafka} and {@code rabbit} profiles: Spring Modulith's event
 * publication registry stores each {@link OrderPlaced} in the transaction that places its order (the
 * ATOMIC place-order claim's), and once it committed sends it to {@code order-events} (the Kafka
 * topic, or the RabbitMQ exchange through {@link OrderEventsRabbitExternalizer}), keyed by the
 * order, with its deduplication id as the {@code Idempotency-Key} header; an event not sent before
 * a crash is sent again at the next start.
 */
@Configuration(proxyBeanMethods = false)
@Profile({ "kafka", "rabbit" })
class OrderEventsOutbox {

	private static final Logger logger = LoggerFactory.getLogger(OrderEventsOutbox.class);

	/**
	 * The crash window after the order and its event committed, before the event is sent.
	 */
	static final String BEFORE_PUBLISH = "before-publish";

	@Bean
	EventExternalizationConfiguration orderEventsExternalization(CrashWindowProperties crashWindows) {
		Duration hold = crashWindows.hold();
		return EventExternalizationConfiguration.externalizing()
			.selectByType(OrderPlaced.class)
			.route(OrderPlaced.class, (event) -> RoutingTarget.forTarget("order-events").andKey(event.orderId()))
			.headers(OrderPlaced.class, (event) -> {
				hold(event, hold);
				return Map.of("Idempotency-Key", event.deduplicationId().getBytes(StandardCharsets.UTF_8));
			})
			.build();
	}

	/**
	 * Hold an event before it is sent when {@code sample.crash-windows.hold} is set and its customer
	 * is marked {@code hold-before-publish-}, announcing it so that a crash test knows when to kill.
	 */
	private static void hold(OrderPlaced event, Duration hold) {
		if (hold.isZero() || hold.isNegative() || !event.customerId().startsWith("hold-" + BEFORE_PUBLISH + "-")) {
			return;
		}
		logger.info("Crash window {}: holding the event of key #{} for {}", BEFORE_PUBLISH,
				KeyHashes.shortHash(event.deduplicationId()), hold);
		try {
			Thread.sleep(hold.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
