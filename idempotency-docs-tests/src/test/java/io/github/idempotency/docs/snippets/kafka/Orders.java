package io.github.idempotency.docs.snippets.kafka;

import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import io.github.idempotency.annotation.Idempotent;

/**
 * Places the orders of a batch listener, one record at a time. Not a bean here.
 */
class Orders {

	// tag::batch-service[]
	@Idempotent(operation = "order-placed")
	public OrderConfirmation place(ConsumerRecord<String, OrderPlaced> record) {
		return new OrderConfirmation(record.value().orderId(), UUID.randomUUID().toString());
	}
	// end::batch-service[]

}
