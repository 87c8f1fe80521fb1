package io.github.idempotency.sample.orders;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.springframework.amqp.AmqpException;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.modulith.events.EventExternalizationConfiguration;
import org.springframework.modulith.events.RoutingTarget;
import org.springframework.modulith.events.support.DelegatingEventExternalizer;

import io.github.idempotency.sample.messaging.MessagingProperties;

/**
 * The outbox's way to RabbitMQ, in the {@code rabbit} profile: each {@link OrderPlaced} the event
 * publication registry holds is sent to the order exchange, routed by its order id, with its
 * deduplication id as the {@code Idempotency-Key} header and as the message id. Its publication is
 * complete only once the broker confirmed the message (publisher confirms), so an event the broker
 * never took stays in the registry and is sent again.
 */
@Configuration(proxyBeanMethods = false)
@Profile("rabbit")
class OrderEventsRabbitExternalizer {

	private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(10);

	@Bean
	DelegatingEventExternalizer rabbitOrderEventsExternalizer(EventExternalizationConfiguration configuration,
			RabbitTemplate rabbit, MessagingProperties names) {
		return new DelegatingEventExternalizer(configuration,
				(target, event) -> send(rabbit, names.orderExchange(), target, event, configuration));
	}

	private static CompletableFuture<?> send(RabbitTemplate rabbit, String exchange, RoutingTarget target, Object event,
			EventExternalizationConfiguration configuration) {
		try {
			rabbit.invoke((operations) -> {
				operations.convertAndSend(exchange, target.getKey(), event, (message) -> {
					copyHeaders(configuration, event, message.getMessageProperties());
					return message;
				});
				operations.waitForConfirmsOrDie(CONFIRM_TIMEOUT.toMillis());
				return null;
			});
			return CompletableFuture.completedFuture(null);
		}
		catch (AmqpException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/**
	 * Copy the event's headers, which are bytes for Kafka, as text.
	 */
	private static void copyHeaders(EventExternalizationConfiguration configuration, Object event,
			MessageProperties properties) {
		configuration.getHeadersFor(event).forEach((name, value) -> {
			Object text = (value instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8) : value;
			properties.setHeader(name, text);
			if ("Idempotency-Key".equals(name)) {
				properties.setMessageId(String.valueOf(text));
			}
		});
	}

}
