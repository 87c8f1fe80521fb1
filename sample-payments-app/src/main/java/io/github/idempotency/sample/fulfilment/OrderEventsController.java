package io.github.idempotency.sample.fulfilment;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.context.annotation.Profile;
import org.springframework.http.HttpStatus;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Stands in for the order service upstream, in the {@code kafka} profile: {@code POST /order-events}
 * publishes an {@link OrderPlaced} event to {@code order-events}, {@code copies} times, as a
 * producer that retries its send does, each copy a new record with the same
 * {@code Idempotency-Key} header ({@code order-placed:<orderId>}).
 */
@RestController
@Profile("kafka")
class OrderEventsController {

	private final KafkaTemplate<Object, Object> kafka;

	OrderEventsController(KafkaTemplate<Object, Object> kafka) {
		this.kafka = kafka;
	}

	@PostMapping("/order-events")
	@ResponseStatus(HttpStatus.ACCEPTED)
	List<String> publish(@RequestBody OrderPlaced event, @RequestParam(defaultValue = "1") int copies) {
		List<String> records = new ArrayList<>();
		for (int i = 0; i < Math.min(copies, 10); i++) {
			ProducerRecord<Object, Object> record = new ProducerRecord<>(FulfilmentTopics.ORDER_EVENTS,
					event.orderId(), event);
			record.headers()
				.add("Idempotency-Key", ("order-placed:" + event.orderId()).getBytes(StandardCharsets.UTF_8));
			var sent = this.kafka.send(record).join().getRecordMetadata();
			records.add(sent.topic() + "-" + sent.partition() + "@" + sent.offset());
		}
		return records;
	}

}
