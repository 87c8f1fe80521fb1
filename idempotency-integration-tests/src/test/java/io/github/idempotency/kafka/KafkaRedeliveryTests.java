package io.github.idempotency.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.kafka.KafkaOrderApplication.BatchListener;
import io.github.idempotency.kafka.KafkaOrderApplication.Deliveries;
import io.github.idempotency.kafka.KafkaOrderApplication.Delivery;
import io.github.idempotency.kafka.KafkaOrderApplication.Gates;
import io.github.idempotency.kafka.KafkaOrderApplication.Listeners;
import io.github.idempotency.kafka.KafkaOrderApplication.Received;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @Idempotent} Kafka listeners on Spring Kafka's embedded KRaft broker and real PostgreSQL:
 * a record redelivered after its consumer closed without committing, the same event sent twice by
 * a producer, a poison record and a duplicate that arrives while the first is in progress on
 * another consumer each have one effect.
 */
@SpringBootTest(classes = KafkaOrderApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.flyway.locations=classpath:db/webtest",
				"spring.kafka.consumer.auto-offset-reset=earliest", "spring.kafka.listener.ack-mode=manual",
				"spring.kafka.listener.poll-timeout=100ms",
				"idempotency.classification.final-exceptions="
						+ "io.github.idempotency.kafka.KafkaOrderApplication.InvalidInvoiceException" })
// The embedded broker stops with the context, rather than run on beside the tests after these.
@DirtiesContext
@EmbeddedKafka(partitions = 1,
		topics = { KafkaOrderApplication.SHIPMENTS, KafkaOrderApplication.ORDERS, KafkaOrderApplication.REPLIES,
				KafkaOrderApplication.INVOICES, KafkaOrderApplication.REFUNDS, KafkaOrderApplication.PLACEMENTS, KafkaOrderApplication.CONSIGNMENTS,
				KafkaOrderApplication.DEAD_LETTERS },
		brokerProperties = "offsets.topic.num.partitions=1", bootstrapServersProperty = "spring.kafka.bootstrap-servers")
class KafkaRedeliveryTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("kafka");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		registry.add("spring.datasource.url", database::url);
		registry.add("spring.datasource.username", database::username);
		registry.add("spring.datasource.password", database::password);
	}

	@Autowired
	KafkaTemplate<Object, Object> kafka;

	@Autowired
	KafkaListenerEndpointRegistry registry;

	@Autowired
	Deliveries deliveries;

	@Autowired
	Received received;

	@Autowired
	Gates gates;

	@Autowired
	Listeners listeners;

	@Autowired
	BatchListener batchListener;

	@Autowired
	JdbcTemplate jdbc;

	@Test
	void aRecordRedeliveredAfterItsConsumerClosedWithoutCommittingIsReplayedNotRunAgain() {
		String shipment = UUID.randomUUID().toString();
		String key = "shipment-" + shipment;
		this.deliveries.killConsumerAfter(key);
		send(KafkaOrderApplication.SHIPMENTS, null, shipment, key);
		await().atMost(Duration.ofSeconds(30)).until(() -> this.deliveries.of(KafkaOrderApplication.SHIPMENTS, key).size() == 1);
		MessageListenerContainer container = this.registry.getListenerContainer("shipments");
		container.stop();
		container.start();
		await().atMost(Duration.ofSeconds(30)).until(() -> this.deliveries.of(KafkaOrderApplication.SHIPMENTS, key).size() == 2);
		assertThat(this.deliveries.of(KafkaOrderApplication.SHIPMENTS, key)).extracting(Delivery::outcome).containsExactly("consumer-killed", "committed");
		assertThat(this.deliveries.of(KafkaOrderApplication.SHIPMENTS, key)).extracting(Delivery::offset).containsOnly(this.deliveries.of(KafkaOrderApplication.SHIPMENTS, key).get(0).offset());
		assertThat(effects("shipment", shipment)).isOne();
		assertThat(status("kafka-shipment", key)).isEqualTo("COMPLETED");
	}

	@Test
	void anEventAProducerSentTwiceRunsOnceAndBothRecordsGetTheSameReply() {
		String orderId = UUID.randomUUID().toString();
		String event = "{\"orderId\":\"" + orderId + "\",\"amount\":4200}";
		send(KafkaOrderApplication.ORDERS, orderId, event, null);
		send(KafkaOrderApplication.ORDERS, orderId, event, null);
		await().atMost(Duration.ofSeconds(30)).until(() -> this.received.replies(orderId).size() == 2);
		assertThat(this.deliveries.of(KafkaOrderApplication.ORDERS, orderId)).extracting(Delivery::offset).doesNotHaveDuplicates();
		assertThat(this.received.replies(orderId).get(1)).isEqualTo(this.received.replies(orderId).get(0));
		assertThat(effects("order", orderId)).isOne();
	}

	@Test
	void aPoisonRecordIsStoredAsFailedAndGoesToTheDeadLetterTopicOnceWithoutRetries() {
		String invoice = "poison-" + UUID.randomUUID();
		String key = "invoice-" + invoice;
		send(KafkaOrderApplication.INVOICES, null, invoice, key);
		String after = "after-" + UUID.randomUUID();
		send(KafkaOrderApplication.INVOICES, null, after, "invoice-" + after);
		// The next record of the partition is committed once the poison record's handling is over.
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.deliveries.of(KafkaOrderApplication.INVOICES, "invoice-" + after).stream().anyMatch((d) -> d.outcome().equals("committed")));
		String fence = "fence-" + UUID.randomUUID();
		send(KafkaOrderApplication.DEAD_LETTERS, null, fence, null);
		await().atMost(Duration.ofSeconds(30)).until(() -> this.received.deadLetters(fence).size() == 1);
		assertThat(this.received.deadLetters(invoice)).hasSize(1);
		assertThat(this.deliveries.of(KafkaOrderApplication.INVOICES, key)).extracting(Delivery::outcome).containsExactly("InvalidInvoiceException");
		assertThat(effects("invoice", invoice)).isOne();
		assertThat(status("kafka-invoice", key)).isEqualTo("COMPLETED");
	}

	@Test
	void aKeyReusedWithAnotherPayloadIsRefusedWithoutRunningAndGoesToTheDeadLetterTopicOnce() {
		String shipment = UUID.randomUUID().toString();
		String key = "shipment-" + shipment;
		String other = "other-" + shipment;
		send(KafkaOrderApplication.SHIPMENTS, null, shipment, key);
		send(KafkaOrderApplication.SHIPMENTS, null, other, key);
		await().atMost(Duration.ofSeconds(30)).until(() -> this.received.deadLetters(other).size() == 1);
		assertThat(this.deliveries.of(KafkaOrderApplication.SHIPMENTS, key)).extracting(Delivery::outcome)
			.containsExactly("committed", "IdempotencyKeyMismatchException");
		assertThat(effects("shipment", shipment)).isOne();
		assertThat(effects("shipment", other)).isZero();
	}

	@Test
	void aRecordWhosePartitionMovesToAnotherConsumerMidRecordRunsOnce() {
		String consignment = "consignment-" + UUID.randomUUID();
		String key = "key-" + consignment;
		this.gates.close(consignment);
		send(KafkaOrderApplication.CONSIGNMENTS, null, consignment, key);
		// The first consumer blocks in the record past its poll interval: the group takes the
		// partition from it, and the other consumer gets the record while the first still runs.
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.deliveries.of(KafkaOrderApplication.CONSIGNMENTS, key)
				.stream()
				.anyMatch((d) -> d.outcome().equals("IdempotencyKeyInProgressException")));
		this.gates.open(consignment);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.deliveries.of(KafkaOrderApplication.CONSIGNMENTS, key)
				.stream()
				.anyMatch((d) -> d.outcome().equals("committed")));
		assertThat(this.deliveries.of(KafkaOrderApplication.CONSIGNMENTS, key)).extracting(Delivery::outcome)
			.contains("commit-failed")
			.last()
			.isEqualTo("committed");
		assertThat(effects("consignment", consignment)).isOne();
		assertThat(status("kafka-consignment", key)).isEqualTo("COMPLETED");
	}

	@Test
	void aTransientFailureReleasesTheKeyAndTheRetryRunsAgainOnTheWritesOfNoFailedAttemptInAtomicMode() {
		String refund = UUID.randomUUID().toString();
		String key = "refund-" + refund;
		this.listeners.failOnce(refund);
		send(KafkaOrderApplication.REFUNDS, null, refund, key);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.deliveries.of(KafkaOrderApplication.REFUNDS, key)
				.stream()
				.anyMatch((d) -> d.outcome().equals("committed")));
		assertThat(this.deliveries.of(KafkaOrderApplication.REFUNDS, key)).extracting(Delivery::outcome)
			.containsExactly("IllegalStateException", "committed");
		assertThat(effects("refund", refund)).isOne();
		assertThat(status("kafka-refund", key)).isEqualTo("COMPLETED");
	}

	@Test
	void aBatchGuardsEachRecordByItsOwnKeyAndIsRedeliveredFromItsFailedRecordWhoseOthersAreReplayed() {
		String id = UUID.randomUUID().toString();
		String first = "first-" + id;
		String poison = "poison-" + id;
		String last = "last-" + id;
		send(KafkaOrderApplication.PLACEMENTS, null, first, "placement-" + first);
		send(KafkaOrderApplication.PLACEMENTS, null, poison, "placement-" + poison);
		send(KafkaOrderApplication.PLACEMENTS, null, first, "placement-" + first);
		send(KafkaOrderApplication.PLACEMENTS, null, last, "placement-" + last);
		await().atMost(Duration.ofSeconds(30)).until(() -> this.batchListener.placed().contains("placed:" + last));
		assertThat(this.batchListener.placed()).filteredOn((placed) -> placed.endsWith(id))
			.containsExactly("placed:" + first, "placed:" + first, "placed:" + last);
		assertThat(this.received.deadLetters(poison)).hasSize(1);
		assertThat(effects("placement", first)).isOne();
		assertThat(effects("placement", poison)).isOne();
		assertThat(effects("placement", last)).isOne();
	}

	@Test
	void aDuplicateArrivingWhileTheFirstIsInProgressOnAnotherConsumerIsRetriedThenSkipped() {
		String parcel = "parcel-" + UUID.randomUUID();
		ConcurrentMessageListenerContainer<?, ?> consumers = (ConcurrentMessageListenerContainer<?, ?>) this.registry
			.getListenerContainer("parcels");
		// Each of the two consumers has one partition: the record and its duplicate go to different ones.
		await().atMost(Duration.ofSeconds(30))
			.until(() -> consumers.getContainers()
				.stream()
				.allMatch((consumer) -> consumer.getAssignedPartitions() != null
						&& consumer.getAssignedPartitions().size() == 1));
		this.gates.close(parcel);
		this.kafka.send(new ProducerRecord<>(KafkaOrderApplication.PARCELS, 0, parcel, "first"));
		await().atMost(Duration.ofSeconds(30)).until(() -> effects("parcel", parcel) == 1);
		this.kafka.send(new ProducerRecord<>(KafkaOrderApplication.PARCELS, 1, parcel, "first"));
		// As many refusals as the error handler's own back-off allows (three retries, and then the
		// dead-letter topic) before the first one ends.
		await().atMost(Duration.ofSeconds(30)).until(() -> this.deliveries.of(KafkaOrderApplication.PARCELS, parcel)
			.stream()
			.filter((d) -> d.outcome().equals("IdempotencyKeyInProgressException"))
			.count() >= 4);
		this.gates.open(parcel);
		await().atMost(Duration.ofSeconds(30)).until(() -> this.deliveries.of(KafkaOrderApplication.PARCELS, parcel)
			.stream()
			.filter((d) -> d.outcome().equals("committed"))
			.count() == 2);
		assertThat(this.deliveries.of(KafkaOrderApplication.PARCELS, parcel)).filteredOn((d) -> d.partition() == 1)
			.extracting(Delivery::outcome)
			.last()
			.isEqualTo("committed");
		assertThat(effects("parcel", parcel)).isOne();
		assertThat(this.received.deadLetters("first")).isEmpty();
	}

	private void send(String topic, String key, String value, String idempotencyKey) {
		ProducerRecord<Object, Object> record = new ProducerRecord<>(topic, key, value);
		if (idempotencyKey != null) {
			record.headers().add(KafkaMessageArguments.KEY_HEADER, idempotencyKey.getBytes(StandardCharsets.UTF_8));
		}
		this.kafka.send(record).join();
	}

	private long effects(String endpoint, String detail) {
		return this.jdbc.queryForObject("SELECT count(*) FROM effect WHERE endpoint = ? AND detail = ?", Long.class,
				endpoint, detail);
	}

	private String status(String operation, String key) {
		return this.jdbc.queryForObject(
				"SELECT status FROM idempotency_record WHERE operation = ? AND idempotency_key = ?", String.class,
				operation, key);
	}

}
