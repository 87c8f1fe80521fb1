package io.github.idempotency.sample.fulfilment;

import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.context.annotation.Profile;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.messaging.handler.annotation.SendTo;
import org.springframework.stereotype.Component;

import io.github.idempotency.annotation.Idempotent;

/**
 * Ships placed orders, in the {@code kafka} profile: one shipment per {@code order-events} event
 * however often Kafka delivers it (a redelivery after a crash or a rebalance, a producer's retry),
 * and the same {@link Shipment} replied on {@code shipment-confirmations} to every copy. The key is
 * the record's {@code Idempotency-Key} header; an event that can never ship goes to
 * {@code order-events-dlt} once.
 */
@Component
@Profile("kafka")
class OrderEventsListener {

	/**
	 * Name of the idempotent operation that ships orders.
	 */
	static final String OPERATION = "ship-order";

	private final ShipmentRepository shipments;

	private final ShipmentCrashWindows crashWindows;

	OrderEventsListener(ShipmentRepository shipments, ShipmentCrashWindows crashWindows) {
		this.shipments = shipments;
		this.crashWindows = crashWindows;
	}

	@KafkaListener(id = "fulfilment", topics = FulfilmentTopics.ORDER_EVENTS)
	@SendTo(FulfilmentTopics.CONFIRMATIONS)
	@Idempotent(operation = OPERATION)
	public Shipment onOrderPlaced(ConsumerRecord<String, OrderPlaced> record) {
		OrderPlaced event = record.value();
		if (event.items() <= 0) {
			throw new InvalidOrderEventException("Order " + event.orderId() + " has no items to ship.");
		}
		this.crashWindows.reached(ShipmentCrashWindows.BEFORE_SHIP, record);
		Shipment shipment = this.shipments.insert(event, "TRK-" + UUID.randomUUID());
		this.crashWindows.reached(ShipmentCrashWindows.AFTER_SHIP, record);
		return shipment;
	}

}
