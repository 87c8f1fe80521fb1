package io.github.idempotency.sample.reliability;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

import io.github.idempotency.KeyHashes;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code kill -9} of the packaged application while its ATOMIC Kafka listener holds one order
 * event at each point of its shipment, then a restart on the same broker and database: each event
 * is redelivered, and each order ends with exactly one shipment, the same one that every
 * confirmation names (issue 24: ATOMIC with a {@code kill -9} of the consuming application).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KafkaAtomicProcessCrashIT {

	private static final String BEFORE_SHIP = "before-ship";

	private static final String AFTER_SHIP = "after-ship";

	private static final String AFTER_COMMIT = "after-commit";

	private static final List<String> WINDOWS = List.of(BEFORE_SHIP, AFTER_SHIP, AFTER_COMMIT);

	private static final Duration TIMEOUT = Duration.ofSeconds(90);

	private EmbeddedKafkaKraftBroker broker;

	private PostgresTestDatabase database;

	private JdbcTemplate jdbc;

	private SampleProcess restarted;

	/** The order held at each window. */
	private final Map<String, String> orders = new LinkedHashMap<>();

	/** What the database held of each order when the consumer was killed. */
	private final Map<String, Snapshot> atCrash = new LinkedHashMap<>();

	@BeforeAll
	void killTheConsumerWithAnEventHeldAtEachWindowThenRestartIt() {
		this.broker = new EmbeddedKafkaKraftBroker(1, 1);
		this.broker.brokerProperties(Map.of("offsets.topic.num.partitions", "1"));
		this.broker.afterPropertiesSet();
		this.database = PostgresTestDatabase.create("crash_kafka");
		this.jdbc = new JdbcTemplate(
				new DriverManagerDataSource(this.database.url(), this.database.username(), this.database.password()));
		long started = System.nanoTime();
		try (SampleProcess crashing = start("kafka-crashing", "--sample.crash-windows.hold=5m");
				KafkaProducer<String, String> producer = producer()) {
			// Each of the three consumers owns one partition before any event is sent: a consumer that
			// still owned them all would hold the other windows' events behind the one it holds, and
			// the rebalance that would hand them on waits for its next poll (seen once on a loaded
			// machine: one window held, two never reached).
			for (int partition = 0; partition < WINDOWS.size(); partition++) {
				crashing.awaitLog("partitions assigned: [order-events-" + partition + "]");
			}
			for (int partition = 0; partition < WINDOWS.size(); partition++) {
				String window = WINDOWS.get(partition);
				String order = "o-" + UUID.randomUUID();
				this.orders.put(window, order);
				ProducerRecord<String, String> record = new ProducerRecord<>("order-events", partition, order,
						"{\"orderId\":\"" + order + "\",\"customerId\":\"hold-" + window + "-c\",\"items\":2}");
				record.headers().add("Idempotency-Key", key(order).getBytes(StandardCharsets.UTF_8));
				producer.send(record);
			}
			producer.flush();
			this.orders.forEach((window, order) -> crashing
				.awaitLog("Crash window " + window + ": holding order event of key #" + KeyHashes.shortHash(key(order))
						+ " "));
			this.orders.forEach((window, order) -> this.atCrash.put(window, snapshot(order)));
			crashing.kill();
		}
		long killed = System.nanoTime();
		this.restarted = start("kafka-restarted");
		System.out.printf("kafka crash: started, held and killed in %d ms, restarted in %d ms%n",
				TimeUnit.NANOSECONDS.toMillis(killed - started),
				TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed));
		await().atMost(TIMEOUT)
			.pollInterval(Duration.ofMillis(200))
			.until(() -> this.orders.values().stream().allMatch((order) -> "COMPLETED".equals(snapshot(order).status())));
	}

	@AfterAll
	void stopTheRestartedApplicationAndTheBroker() {
		if (this.restarted != null) {
			this.restarted.close();
		}
		if (this.broker != null) {
			this.broker.destroy();
		}
	}

	@Test
	void aKillBeforeTheShipmentLeftNothingAndTheRedeliveryShippedOnce() {
		assertThat(this.atCrash.get(BEFORE_SHIP)).isEqualTo(Snapshot.NOTHING);
		assertShippedOnceAndConfirmedAlike(BEFORE_SHIP);
	}

	@Test
	void aKillAfterTheShipmentsInsertBeforeItsCommitLeftNothingAndTheRedeliveryShippedOnce() {
		assertThat(this.atCrash.get(AFTER_SHIP)).isEqualTo(Snapshot.NOTHING);
		assertShippedOnceAndConfirmedAlike(AFTER_SHIP);
	}

	@Test
	void aKillAfterTheCommitBeforeTheOffsetCommitIsAnsweredFromTheRecordNotShippedAgain() {
		Snapshot crash = this.atCrash.get(AFTER_COMMIT);
		assertThat(crash.status()).isEqualTo("COMPLETED");
		assertThat(crash.trackingNumbers()).hasSize(1);
		assertThat(assertShippedOnceAndConfirmedAlike(AFTER_COMMIT)).isEqualTo(crash.trackingNumbers().get(0));
	}

	/**
	 * Assert that the window's order has one shipment and that every confirmation names it.
	 * @return the shipment's tracking number
	 */
	private String assertShippedOnceAndConfirmedAlike(String window) {
		String order = this.orders.get(window);
		List<String> trackingNumbers = snapshot(order).trackingNumbers();
		assertThat(trackingNumbers).as("shipments of the order held %s", window).hasSize(1);
		List<String> confirmations = confirmations(order);
		assertThat(confirmations).as("confirmations of the order held %s", window)
			.isNotEmpty()
			.allSatisfy((confirmation) -> assertThat(confirmation).contains(trackingNumbers.get(0)));
		return trackingNumbers.get(0);
	}

	private SampleProcess start(String name, String... arguments) {
		List<String> all = new ArrayList<>(List.of("--spring.kafka.bootstrap-servers=" + this.broker.getBrokersAsString(),
				"--spring.kafka.listener.concurrency=3", "--spring.kafka.listener.poll-timeout=100ms",
				// A killed consumer leaves the group after this, rather than Kafka's default 45 s.
				"--spring.kafka.consumer.properties.session.timeout.ms=6000",
				"--spring.kafka.consumer.properties.heartbeat.interval.ms=1000"));
		all.addAll(List.of(arguments));
		return SampleProcess.start(this.database, "kafka", name, all.toArray(String[]::new));
	}

	private Snapshot snapshot(String order) {
		List<String> status = this.jdbc.queryForList(
				"SELECT status FROM idempotency_record WHERE tenant_id = 'default' AND operation = 'ship-order' "
						+ "AND idempotency_key = ?",
				String.class, key(order));
		List<String> trackingNumbers = this.jdbc
			.queryForList("SELECT tracking_number FROM shipment WHERE order_id = ? ORDER BY id", String.class, order);
		return new Snapshot(status.isEmpty() ? null : status.get(0), trackingNumbers);
	}

	/**
	 * Return the confirmations of an order, reading the topic to its end once there is one.
	 */
	private List<String> confirmations(String order) {
		Properties properties = new Properties();
		properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, this.broker.getBrokersAsString());
		properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
		List<String> confirmations = new ArrayList<>();
		try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(properties, new StringDeserializer(),
				new StringDeserializer())) {
			List<TopicPartition> partitions = consumer.partitionsFor("shipment-confirmations")
				.stream()
				.map((partition) -> new TopicPartition(partition.topic(), partition.partition()))
				.toList();
			consumer.assign(partitions);
			consumer.seekToBeginning(partitions);
			await().atMost(TIMEOUT).pollInterval(Duration.ZERO).until(() -> {
				Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
				for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
					if (record.value().contains(order)) {
						confirmations.add(record.value());
					}
				}
				return !confirmations.isEmpty()
						&& partitions.stream().allMatch((partition) -> consumer.position(partition) >= ends.get(partition));
			});
		}
		return confirmations;
	}

	private KafkaProducer<String, String> producer() {
		Properties properties = new Properties();
		properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.broker.getBrokersAsString());
		return new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer());
	}

	private static String key(String order) {
		return "order-placed:" + order;
	}

	/**
	 * What the database holds of an order.
	 *
	 * @param status its idempotency record's status, or {@code null} for none
	 * @param trackingNumbers the tracking numbers of its shipments
	 */
	record Snapshot(String status, List<String> trackingNumbers) {

		static final Snapshot NOTHING = new Snapshot(null, List.of());

	}

}
