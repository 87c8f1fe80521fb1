package io.github.idempotency.docs.snippets.kafka;

import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.messaging.handler.annotation.SendTo;

import io.github.idempotency.annotation.Idempotent;

/**
 * Kafka listeners of order events, keyed by the record's header or by the event. Not a bean here:
 * they compile, with no broker to listen to.
 */
class OrderEvents {

	// tag::header-key[]
	@KafkaListener(topics = "orders")
	@SendTo("order-confirmations")
	@Idempotent(operation = "order-placed")
	public OrderConfirmation onOrder(ConsumerRecord<String, OrderPlaced> record) {
		OrderPlaced event = record.value();
		return new OrderConfirmation(event.orderId(), UUID.randomUUID().toString());
	}
	// end::header-key[]

	// tag::event-key[]
	@KafkaListener(topics = "orders")
	@Idempotent(operation = "order-placed", key = "'order:' + #event.orderId()")
	public void onOrderPlaced(OrderPlaced event) {
		// ...
	}
	// end::event-key[]

	// tag::record-key[]
	@KafkaListener(topics = "orders")
	@Idempotent(operation = "order-placed", key = "#record.key()")
	public void onOrderRecord(ConsumerRecord<String, OrderPlaced> record) {
		// ...
	}
	// end::record-key[]

}
