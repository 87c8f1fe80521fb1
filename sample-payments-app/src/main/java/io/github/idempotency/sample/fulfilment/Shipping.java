package io.github.idempotency.sample.fulfilment;

import java.util.UUID;

import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Service;

import io.github.idempotency.annotation.Idempotent;

/**
 * Ships the orders of the RabbitMQ order events, once per event however often the broker delivers
 * it: the same ATOMIC {@code ship-order} operation as the Kafka listener, keyed by the event's
 * deduplication id, so that the shipment, the claim and the stored result commit together before
 * the message is acknowledged.
 */
@Service
@Profile("rabbit")
class Shipping {

	private final ShipmentRepository shipments;

	private final ShipmentCrashWindows crashWindows;

	Shipping(ShipmentRepository shipments, ShipmentCrashWindows crashWindows) {
		this.shipments = shipments;
		this.crashWindows = crashWindows;
	}

	/**
	 * Ship an order, or return the shipment an earlier delivery of its event scheduled.
	 * @param event the event
	 * @param key the event's deduplication id
	 * @return the shipment
	 * @throws InvalidOrderEventException if the order has nothing to ship
	 */
	@Idempotent(operation = OrderEventsListener.OPERATION, key = "#key", fingerprint = "#event")
	public Shipment ship(OrderPlaced event, String key) {
		if (event.items() <= 0) {
			throw new InvalidOrderEventException("Order " + event.orderId() + " has no items to ship.");
		}
		this.crashWindows.reached(ShipmentCrashWindows.BEFORE_SHIP, event, key);
		Shipment shipment = this.shipments.insert(event, "TRK-" + UUID.randomUUID());
		this.crashWindows.reached(ShipmentCrashWindows.AFTER_SHIP, event, key);
		return shipment;
	}

}
