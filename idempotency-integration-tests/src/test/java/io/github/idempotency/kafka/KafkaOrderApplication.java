package io.github.idempotency.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.ConcurrentKafkaListenerContainerFactoryConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.RecordInterceptor;
import org.springframework.kafka.support.converter.StringJacksonJsonMessageConverter;
import org.springframework.messaging.handler.annotation.SendTo;
import org.springframework.util.backoff.FixedBackOff;

import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.annotation.Idempotent;

/**
 * A non-web application with {@code @Idempotent} Kafka listeners on the embedded broker: each run
 * of a listener is a row in {@code effect}. The containers commit nothing themselves (manual
 * acknowledgement that no listener gives): {@link Deliveries} commits each record once its
 * listener has returned, and on request closes the consumer without committing, as a crash would.
 * Failed records get three retries, then go to {@link #DEAD_LETTERS}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class KafkaOrderApplication {

	static final String SHIPMENTS = "kafka-shipments";

	static final String ORDERS = "kafka-orders";

	static final String REPLIES = "kafka-order-replies";

	static final String INVOICES = "kafka-invoices";

	static final String PARCELS = "kafka-parcels";

	static final String REFUNDS = "kafka-refunds";

	static final String PLACEMENTS = "kafka-placements";

	static final String CONSIGNMENTS = "kafka-consignments";

	static final String DEAD_LETTERS = "kafka-dead-letters";

	@Bean
	DefaultErrorHandler errorHandler(KafkaTemplate<Object, Object> template) {
		DeadLetterPublishingRecoverer deadLetters = new DeadLetterPublishingRecoverer(template,
				(record, failure) -> new TopicPartition(DEAD_LETTERS, 0));
		return new DefaultErrorHandler(deadLetters, new FixedBackOff(50, 3));
	}

	@Bean
	NewTopic parcels() {
		// Two partitions, one for each of the listener's two consumers.
		return TopicBuilder.name(PARCELS).partitions(2).replicas(1).build();
	}

	@Bean
	StringJacksonJsonMessageConverter jsonMessageConverter() {
		return new StringJacksonJsonMessageConverter();
	}

	@Bean
	Deliveries deliveries() {
		return new Deliveries();
	}

	@Bean
	Gates gates() {
		return new Gates();
	}

	@Bean
	Listeners listeners(JdbcTemplate jdbc, Gates gates) {
		return new Listeners(jdbc, gates);
	}

	@Bean
	ConcurrentKafkaListenerContainerFactory<Object, Object> batchFactory(
			ConcurrentKafkaListenerContainerFactoryConfigurer configurer, ConsumerFactory<Object, Object> consumers) {
		ConcurrentKafkaListenerContainerFactory<Object, Object> factory = new ConcurrentKafkaListenerContainerFactory<>();
		configurer.configure(factory, consumers);
		factory.setBatchListener(true);
		return factory;
	}

	@Bean
	Placements placements(JdbcTemplate jdbc) {
		return new Placements(jdbc);
	}

	@Bean
	BatchListener batchListener(Placements placements) {
		return new BatchListener(placements);
	}

	@Bean
	Received received() {
		return new Received();
	}

	record OrderPlaced(String orderId, long amount) {
	}

	record OrderAccepted(String orderId, String confirmation) {
	}

	/**
	 * The failure of an invoice that can never be booked; configured as final.
	 */
	static class InvalidInvoiceException extends RuntimeException {

		InvalidInvoiceException(String message) {
			super(message);
		}

	}

	/**
	 * The {@code @Idempotent} listeners under test.
	 */
	static class Listeners {

		private final JdbcTemplate jdbc;

		private final Gates gates;

		private final Set<String> failOnce = ConcurrentHashMap.newKeySet();

		Listeners(JdbcTemplate jdbc, Gates gates) {
			this.jdbc = jdbc;
			this.gates = gates;
		}

		@KafkaListener(id = "shipments", topics = SHIPMENTS)
		@Idempotent(operation = "kafka-shipment")
		public void onShipment(ConsumerRecord<String, String> record) {
			effect("shipment", record.value());
		}

		@KafkaListener(id = "orders", topics = ORDERS)
		@SendTo(REPLIES)
		@Idempotent(operation = "kafka-order", key = "'order:' + #event.orderId()")
		public OrderAccepted onOrder(OrderPlaced event) {
			effect("order", event.orderId());
			return new OrderAccepted(event.orderId(), UUID.randomUUID().toString());
		}

		@KafkaListener(id = "invoices", topics = INVOICES)
		@Idempotent(operation = "kafka-invoice")
		public void onInvoice(ConsumerRecord<String, String> record) {
			effect("invoice", record.value());
			if (record.value().startsWith("poison")) {
				throw new InvalidInvoiceException("This invoice cannot be booked");
			}
		}

		@KafkaListener(id = "parcels", topics = PARCELS, concurrency = "2")
		@Idempotent(operation = "kafka-parcel", key = "#record.key()")
		public void onParcel(ConsumerRecord<String, String> record) {
			effect("parcel", record.key());
			this.gates.pass(record.key());
		}

		/**
		 * Two consumers of a one-partition topic: the one that holds it is taken out of the group
		 * while it blocks in a record longer than its poll interval, and the partition moves to the
		 * other.
		 */
		@KafkaListener(id = "consignments", topics = CONSIGNMENTS, concurrency = "2",
				properties = "max.poll.interval.ms=2000")
		@Idempotent(operation = "kafka-consignment")
		public void onConsignment(ConsumerRecord<String, String> record) {
			effect("consignment", record.value());
			this.gates.pass(record.value());
		}

		@KafkaListener(id = "refunds", topics = REFUNDS)
		@Idempotent(operation = "kafka-refund", mode = IdempotencyMode.ATOMIC)
		public void onRefund(ConsumerRecord<String, String> record) {
			effect("refund", record.value());
			if (this.failOnce.remove(record.value())) {
				throw new IllegalStateException("The bank did not answer");
			}
		}

		void failOnce(String value) {
			this.failOnce.add(value);
		}

		private void effect(String endpoint, String detail) {
			this.jdbc.update("INSERT INTO effect (endpoint, detail) VALUES (?, ?)", endpoint, detail);
		}

	}

	/**
	 * Places one order of a batch, guarded by the key of its record.
	 */
	static class Placements {

		private final JdbcTemplate jdbc;

		Placements(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		@Idempotent(operation = "kafka-placement")
		public String place(ConsumerRecord<String, String> record) {
			this.jdbc.update("INSERT INTO effect (endpoint, detail) VALUES (?, ?)", "placement", record.value());
			if (record.value().startsWith("poison")) {
				throw new InvalidInvoiceException("This order cannot be placed");
			}
			return "placed:" + record.value();
		}

	}

	/**
	 * A batch listener that guards each record by its own key, through {@link Placements}, and
	 * tells the container which record of the batch failed.
	 */
	static class BatchListener {

		private final Placements placements;

		private final List<String> placed = new CopyOnWriteArrayList<>();

		BatchListener(Placements placements) {
			this.placements = placements;
		}

		@KafkaListener(id = "placements", topics = PLACEMENTS, containerFactory = "batchFactory")
		public void onPlacements(List<ConsumerRecord<String, String>> records) {
			for (int i = 0; i < records.size(); i++) {
				try {
					this.placed.add(this.placements.place(records.get(i)));
				}
				catch (RuntimeException ex) {
					throw new BatchListenerFailedException("Order not placed", ex, i);
				}
			}
		}

		List<String> placed() {
			return this.placed;
		}

	}

	/**
	 * What arrives on the reply and dead-letter topics, which no listener guards.
	 */
	static class Received {

		private final List<ConsumerRecord<String, String>> replies = new CopyOnWriteArrayList<>();

		private final List<ConsumerRecord<String, String>> deadLetters = new CopyOnWriteArrayList<>();

		@KafkaListener(id = "replies", topics = REPLIES)
		public void onReply(ConsumerRecord<String, String> reply) {
			this.replies.add(reply);
		}

		@KafkaListener(id = "dead-letters", topics = DEAD_LETTERS)
		public void onDeadLetter(ConsumerRecord<String, String> deadLetter) {
			this.deadLetters.add(deadLetter);
		}

		List<String> replies(String orderId) {
			return this.replies.stream().map(ConsumerRecord::value).filter((value) -> value.contains(orderId)).toList();
		}

		List<ConsumerRecord<String, String>> deadLetters(String value) {
			return this.deadLetters.stream().filter((record) -> value.equals(record.value())).toList();
		}

	}

	/**
	 * Holds a listener inside its run for a key until the test lets it go on.
	 */
	static class Gates {

		private final Map<String, CountDownLatch> gates = new ConcurrentHashMap<>();

		void close(String key) {
			this.gates.put(key, new CountDownLatch(1));
		}

		void open(String key) {
			this.gates.get(key).countDown();
		}

		void pass(String key) {
			CountDownLatch gate = this.gates.get(key);
			try {
				if (gate != null && !gate.await(30, TimeUnit.SECONDS)) {
					throw new IllegalStateException("The gate of " + key + " stayed closed");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}

	}

	/**
	 * Commits each record once its listener has returned (a replay included), records every
	 * delivery and how it ended, and on request leaves one record uncommitted and tells the
	 * test, which then closes its consumer, as a crash after the effect and before the commit
	 * would.
	 */
	static class Deliveries implements RecordInterceptor<Object, Object> {

		private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();

		private final Set<String> toKill = ConcurrentHashMap.newKeySet();

		void killConsumerAfter(String key) {
			this.toKill.add(key);
		}

		List<Delivery> of(String topic, String key) {
			return this.deliveries.stream()
				.filter((delivery) -> topic.equals(delivery.topic()) && key.equals(delivery.key()))
				.toList();
		}

		@Override
		public ConsumerRecord<Object, Object> intercept(ConsumerRecord<Object, Object> record,
				Consumer<Object, Object> consumer) {
			return record;
		}

		@Override
		public void success(ConsumerRecord<Object, Object> record, Consumer<Object, Object> consumer) {
			String key = keyOf(record);
			if (key != null && this.toKill.remove(key)) {
				this.deliveries.add(new Delivery(record.topic(), key, record.partition(), record.offset(), "consumer-killed"));
				return;
			}
			try {
				consumer.commitSync(Map.of(new TopicPartition(record.topic(), record.partition()),
						new OffsetAndMetadata(record.offset() + 1)), Duration.ofSeconds(10));
			}
			catch (KafkaException ex) {
				// The consumer left the group meanwhile, and its partition is another's now.
				this.deliveries.add(new Delivery(record.topic(), key, record.partition(), record.offset(),
						"commit-failed"));
				return;
			}
			this.deliveries.add(new Delivery(record.topic(), key, record.partition(), record.offset(), "committed"));
		}

		@Override
		public void failure(ConsumerRecord<Object, Object> record, Exception exception,
				Consumer<Object, Object> consumer) {
			this.deliveries.add(new Delivery(record.topic(), keyOf(record), record.partition(), record.offset(),
					NestedExceptionUtils.getMostSpecificCause(exception).getClass().getSimpleName()));
		}

		/**
		 * The record's key header, or else its key.
		 */
		private static @Nullable String keyOf(ConsumerRecord<Object, Object> record) {
			Header header = record.headers().lastHeader(KafkaMessageArguments.KEY_HEADER);
			if (header != null) {
				return new String(header.value(), java.nio.charset.StandardCharsets.UTF_8);
			}
			return (record.key() != null) ? record.key().toString() : null;
		}

	}

	/**
	 * One delivery of a record and how it ended.
	 *
	 * @param topic its topic
	 * @param key its key header, or else its key
	 * @param partition its partition
	 * @param offset its offset
	 * @param outcome {@code committed}, {@code commit-failed}, {@code consumer-killed}, or the
	 * simple name of the root
	 * cause of the listener's exception
	 */
	record Delivery(String topic, @Nullable String key, int partition, long offset, String outcome) {
	}

}
