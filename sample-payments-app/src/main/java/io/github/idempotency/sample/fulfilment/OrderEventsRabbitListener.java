package io.github.idempotency.sample.fulfilment;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.AmqpRejectAndDontRequeueException;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.context.annotation.Profile;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.stereotype.Component;

import io.github.idempotency.IdempotencyKeyMismatchException;
import io.github.idempotency.IdempotentOperationFailedException;

/**
 * Ships the orders of the outbox's RabbitMQ order events, in the {@code rabbit} profile, through
 * {@link Shipping}, whose transaction has committed when it returns; the container acknowledges the
 * message after that. A duplicate that arrives while the first delivery ships fails with
 * {@code IdempotencyKeyInProgressException} and is requeued; an event that can never ship, or that
 * contradicts the one already shipped under its key, is rejected without requeueing.
 */
@Component
@Profile("rabbit")
class OrderEventsRabbitListener {

	/**
	 * Id of the listener container.
	 */
	static final String ID = "shipping";

	private static final Logger logger = LoggerFactory.getLogger(OrderEventsRabbitListener.class);

	private final Shipping shipping;

	private final ShipmentCrashWindows crashWindows;

	OrderEventsRabbitListener(Shipping shipping, ShipmentCrashWindows crashWindows) {
		this.shipping = shipping;
		this.crashWindows = crashWindows;
	}

	@RabbitListener(id = ID, queues = "${sample.rabbit.shipment-queue:fulfilment.order-events}")
	void onOrderPlaced(OrderPlaced event, @Header("Idempotency-Key") String key) {
		try {
			Shipment shipment = this.shipping.ship(event, key);
			logger.debug("Order {} is shipment {}", event.orderId(), shipment.id());
			this.crashWindows.reached(ShipmentCrashWindows.AFTER_COMMIT, event, key);
		}
		catch (InvalidOrderEventException | IdempotentOperationFailedException ex) {
			throw new AmqpRejectAndDontRequeueException("Order " + event.orderId() + " cannot ship", ex);
		}
		catch (IdempotencyKeyMismatchException ex) {
			throw new AmqpRejectAndDontRequeueException(
					"Order " + event.orderId() + " was already shipped with different details", ex);
		}
	}

}
