package io.github.idempotency.docs.snippets.kafka;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Sends order events with their idempotency key in a header.
 */
class OrderProducer {

	private final KafkaTemplate<String, OrderPlaced> kafka;

	OrderProducer(KafkaTemplate<String, OrderPlaced> kafka) {
		this.kafka = kafka;
	}

	void send(OrderPlaced event) {
		// tag::producer[]
		ProducerRecord<String, OrderPlaced> record = new ProducerRecord<>("orders", event.orderId(), event);
		record.headers().add("Idempotency-Key", ("order:" + event.orderId()).getBytes(StandardCharsets.UTF_8));
		this.kafka.send(record);
		// end::producer[]
	}

}
