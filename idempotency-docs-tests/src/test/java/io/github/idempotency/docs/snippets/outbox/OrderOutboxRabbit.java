package io.github.idempotency.docs.snippets.outbox;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

import org.springframework.amqp.AmqpException;
import org.springframework.amqp.AmqpRejectAndDontRequeueException;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.context.annotation.Bean;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.modulith.events.EventExternalizationConfiguration;
import org.springframework.modulith.events.support.DelegatingEventExternalizer;

import io.github.idempotency.IdempotencyKeyMismatchException;
import io.github.idempotency.IdempotentOperationFailedException;
import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.annotation.Idempotent;

/**
 * The outbox's events sent to RabbitMQ with publisher confirms, and the consumer that applies each
 * once. Not beans here: they compile, with no broker to send to.
 */
class OrderOutboxRabbit {

	// tag::externalizer[]
	@Bean
	DelegatingEventExternalizer rabbitEventExternalizer(EventExternalizationConfiguration configuration,
			RabbitTemplate rabbit) {
		return new DelegatingEventExternalizer(configuration, (target, event) -> {
			try {
				rabbit.invoke((operations) -> {
					operations.convertAndSend(target.getTarget(), target.getKey(), event, (message) -> {
						configuration.getHeadersFor(event)
							.forEach((name, value) -> message.getMessageProperties()
								.setHeader(name, (value instanceof byte[] bytes)
										? new String(bytes, StandardCharsets.UTF_8) : value));
						return message;
					});
					// Sent only once the broker has it: else the registry sends it again.
					operations.waitForConfirmsOrDie(10_000);
					return null;
				});
				return CompletableFuture.completedFuture(null);
			}
			catch (AmqpException ex) {
				return CompletableFuture.failedFuture(ex);
			}
		});
	}
	// end::externalizer[]

	static class OrderEventsListener {

		private final Shipping shipping;

		OrderEventsListener(Shipping shipping) {
			this.shipping = shipping;
		}

		// tag::listener[]
		@RabbitListener(queues = "fulfilment.order-events")
		void onOrderPlaced(OrderPlaced event, @Header("Idempotency-Key") String key) {
			try {
				this.shipping.ship(event, key);
			}
			catch (IdempotentOperationFailedException | IdempotencyKeyMismatchException ex) {
				throw new AmqpRejectAndDontRequeueException("Order " + event.orderId() + " cannot ship", ex);
			}
		}
		// end::listener[]

	}

	static class Shipping {

		// tag::shipping[]
		@Idempotent(operation = "ship-order", key = "#key", fingerprint = "#event", mode = IdempotencyMode.ATOMIC)
		public Shipment ship(OrderPlaced event, String key) {
			return this.shipments.insert(event);
		}
		// end::shipping[]

		private final Shipments shipments;

		Shipping(Shipments shipments) {
			this.shipments = shipments;
		}

	}

	record OrderPlaced(String orderId, int items) {
	}

	record Shipment(long id, String orderId) {
	}

	interface Shipments {

		Shipment insert(OrderPlaced event);

	}

}
