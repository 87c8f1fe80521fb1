package io.github.idempotency.sample.reliability;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

import io.github.idempotency.KeyHashes;
import io.github.idempotency.sample.support.Payments;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static io.github.idempotency.sample.support.Carts.cart;
import static io.github.idempotency.sample.support.Carts.item;
import static io.github.idempotency.sample.support.Carts.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The transactional outbox end to end, with a real broker: {@code POST /orders} (ATOMIC) commits the
 * order, its claim, its stored answer and its {@code OrderPlaced} event together; the application is
 * killed with {@code kill -9} after that commit and before the event was sent; at the next start the
 * event publication registry sends it, and the guarded consumer ships the order once. A retry of
 * the order is answered from its record and publishes nothing more: one HTTP key, one order, one
 * event, one shipment. In the same run a second order's consumer is killed after its shipment
 * committed and before its offset: the record comes again and ships nothing more.
 */
class OutboxProcessCrashIT {

	private static final Duration TIMEOUT = Duration.ofSeconds(90);

	@Test
	void anEventLeftUnsentByAKillIsSentAtTheNextStartAndShipsTheOrderOnce() {
		EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1);
		broker.brokerProperties(Map.of("offsets.topic.num.partitions", "1"));
		broker.afterPropertiesSet();
		try {
			PostgresTestDatabase database = PostgresTestDatabase.create("crash_outbox");
			JdbcTemplate jdbc = new JdbcTemplate(
					new DriverManagerDataSource(database.url(), database.username(), database.password()));
			String orderRequest;
			String orderId;
			String shippedRequest;
			String shippedId;
			try (SampleProcess crashing = start(database, broker, "outbox-crashing", "--sample.crash-windows.hold=5m")) {
				Http http = crashing.http();
				String customer = "hold-before-publish-" + UUID.randomUUID().toString().substring(0, 8);
				HttpResponse<byte[]> mandate = http.post("/cart-mandates")
					.json(cart(customer, "EUR", item("SKU-1", 2, 1250), item("SKU-2", 1, 499)))
					.send();
				assertThat(mandate.statusCode()).as(Http.text(mandate)).isEqualTo(201);
				orderRequest = order(Payments.json(mandate).get("id").asString());
				// The event is sent after the commit, on the request's thread: the answer waits for it.
				CompletableFuture<HttpResponse<byte[]>> placing = CompletableFuture
					.supplyAsync(() -> http.post("/orders").json(orderRequest).send());
				await().atMost(TIMEOUT).until(() -> !orderIds(jdbc, customer).isEmpty());
				orderId = orderIds(jdbc, customer).get(0);
				crashing.awaitLog("Crash window before-publish: holding the event of key #"
						+ KeyHashes.shortHash("order-placed:" + orderId) + " ");
				assertThat(recordStatus(jdbc, orderRequest)).isEqualTo("COMPLETED");
				assertThat(unsentEvents(jdbc)).isOne();
				// A second order goes through at once, and its consumer is held after its shipment
				// committed, before the offset commit.
				String shippedCustomer = "hold-after-commit-" + UUID.randomUUID().toString().substring(0, 8);
				HttpResponse<byte[]> shippedMandate = http.post("/cart-mandates")
					.json(cart(shippedCustomer, "EUR", item("SKU-3", 1, 900)))
					.send();
				shippedRequest = order(Payments.json(shippedMandate).get("id").asString());
				HttpResponse<byte[]> shippedOrder = http.post("/orders").json(shippedRequest).send();
				assertThat(shippedOrder.statusCode()).as(Http.text(shippedOrder)).isEqualTo(201);
				shippedId = Payments.json(shippedOrder).get("id").asString();
				crashing.awaitLog("Crash window after-commit: holding order event of key #"
						+ KeyHashes.shortHash("order-placed:" + shippedId) + " ");
				assertThat(shipments(jdbc, shippedId)).isOne();
				crashing.kill();
				placing.handle((response, failure) -> null).join();
			}
			assertThat(shipments(jdbc, orderId)).isZero();
			try (SampleProcess restarted = start(database, broker, "outbox-restarted")) {
				await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> shipments(jdbc, orderId) == 1);
				await().atMost(TIMEOUT).until(() -> unsentEvents(jdbc) == 0);
				HttpResponse<byte[]> retry = restarted.http().post("/orders").json(orderRequest).send();
				assertThat(retry.statusCode()).as(Http.text(retry)).isEqualTo(201);
				assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
				assertThat(Http.text(retry)).contains("\"id\":" + orderId);
				// The held record comes again after the restart and is answered from the consumer's record.
				await().atMost(TIMEOUT).until(() -> everyRecordConsumed(broker));
			}
			assertThat(jdbc.queryForObject("SELECT count(*) FROM orders WHERE customer_id LIKE 'hold-before-publish-%'",
					Long.class)).isOne();
			assertThat(jdbc.queryForObject("SELECT count(*) FROM event_publication", Long.class)).isEqualTo(2);
			assertThat(shipments(jdbc, orderId)).isOne();
			assertThat(shipments(jdbc, shippedId)).isOne();
			assertThat(jdbc.queryForObject("SELECT count(*) FROM event_publication WHERE completion_date IS NULL",
					Long.class)).isZero();
			assertThat(jdbc.queryForObject("SELECT status FROM idempotency_record WHERE operation = 'ship-order' "
					+ "AND idempotency_key = ?", String.class, "order-placed:" + orderId)).isEqualTo("COMPLETED");
		}
		finally {
			broker.destroy();
		}
	}

	private static SampleProcess start(PostgresTestDatabase database, EmbeddedKafkaKraftBroker broker, String name,
			String... arguments) {
		List<String> all = new java.util.ArrayList<>(List.of(
				"--spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
				"--spring.kafka.listener.poll-timeout=100ms"));
		all.addAll(List.of(arguments));
		return SampleProcess.start(database, "kafka", name, all.toArray(String[]::new));
	}

	private static List<String> orderIds(JdbcTemplate jdbc, String customer) {
		return jdbc.queryForList("SELECT CAST(id AS VARCHAR) FROM orders WHERE customer_id = ?", String.class,
				customer);
	}

	private static String recordStatus(JdbcTemplate jdbc, String orderRequest) {
		String mandate = orderRequest.replaceAll(".*\"cartMandateId\":\"([^\"]+)\".*", "$1");
		return jdbc.queryForObject("SELECT status FROM idempotency_record WHERE operation = 'place-order' "
				+ "AND idempotency_key = ?", String.class, "order:" + mandate);
	}

	/**
	 * Whether the consumers committed the offsets of every record of {@code order-events}: the
	 * record held after its shipment at the kill came again, and its offset is committed now.
	 */
	private static boolean everyRecordConsumed(EmbeddedKafkaKraftBroker broker) throws Exception {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
				broker.getBrokersAsString()))) {
			Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets("fulfilment")
				.partitionsToOffsetAndMetadata()
				.get();
			Map<TopicPartition, OffsetSpec> latest = new java.util.HashMap<>();
			admin.describeTopics(List.of("order-events"))
				.allTopicNames()
				.get()
				.get("order-events")
				.partitions()
				.forEach((partition) -> latest.put(new TopicPartition("order-events", partition.partition()),
						OffsetSpec.latest()));
			Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(latest).all().get();
			return ends.entrySet().stream().allMatch((end) -> end.getValue().offset() == 0
					|| (committed.get(end.getKey()) != null
							&& committed.get(end.getKey()).offset() >= end.getValue().offset()));
		}
	}

	private static long unsentEvents(JdbcTemplate jdbc) {
		return jdbc.queryForObject("SELECT count(*) FROM event_publication WHERE completion_date IS NULL", Long.class);
	}

	private static long shipments(JdbcTemplate jdbc, String orderId) {
		return jdbc.queryForObject("SELECT count(*) FROM shipment WHERE order_id = ?", Long.class, orderId);
	}

}
