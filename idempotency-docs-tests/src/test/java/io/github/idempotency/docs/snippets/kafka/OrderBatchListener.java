package io.github.idempotency.docs.snippets.kafka;

import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.listener.BatchListenerFailedException;

/**
 * A batch listener that guards each record by its own key. Not a bean here: it compiles, with no
 * broker to listen to.
 */
class OrderBatchListener {

	private final Orders orders;

	OrderBatchListener(Orders orders) {
		this.orders = orders;
	}

	// tag::batch[]
	@KafkaListener(topics = "orders", batch = "true")
	public void onOrders(List<ConsumerRecord<String, OrderPlaced>> records) {
		for (int i = 0; i < records.size(); i++) {
			try {
				this.orders.place(records.get(i));   // @Idempotent: each record under its own key
			}
			catch (RuntimeException ex) {
				throw new BatchListenerFailedException("Order not placed", ex, i);
			}
		}
	}
	// end::batch[]

}
