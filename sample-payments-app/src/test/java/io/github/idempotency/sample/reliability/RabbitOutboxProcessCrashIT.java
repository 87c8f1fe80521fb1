package io.github.idempotency.sample.reliability;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

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
 * The transactional outbox end to end on the local RabbitMQ broker: as {@link OutboxProcessCrashIT}
 * does for Kafka, one {@code kill -9} hits an order whose event committed and was not sent yet, and
 * an order whose shipment committed before its message was acknowledged; after the restart the
 * first event is sent and ships once, the second message comes again and is answered from the
 * consumer's record, and a retry of the first order is a replay: one HTTP key, one order, one
 * event, one shipment each.
 */
class RabbitOutboxProcessCrashIT {

	private static final Duration TIMEOUT = Duration.ofSeconds(90);

	private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

	private static final String SHIPMENT_QUEUE = "fulfilment.crash." + RUN;

	private static final String ORDER_EXCHANGE = "order-events.crash." + RUN;

	@Test
	void anEventLeftUnsentByAKillIsSentAtTheNextStartAndAnUnacknowledgedShipmentIsNotRepeated() {
		PostgresTestDatabase database = PostgresTestDatabase.create("crash_rabbit_outbox");
		JdbcTemplate jdbc = new JdbcTemplate(
				new DriverManagerDataSource(database.url(), database.username(), database.password()));
		CachingConnectionFactory connections = new CachingConnectionFactory("127.0.0.1", 5672);
		RabbitAdmin broker = new RabbitAdmin(connections);
		try {
			String orderRequest;
			String orderId;
			String shippedId;
			try (SampleProcess crashing = start(database, "rabbit-outbox-crashing", "--sample.crash-windows.hold=5m")) {
				Http http = crashing.http();
				String customer = "hold-before-publish-" + UUID.randomUUID().toString().substring(0, 8);
				orderRequest = order(mandate(http, cart(customer, "EUR", item("SKU-1", 2, 1250))));
				CompletableFuture<HttpResponse<byte[]>> placing = CompletableFuture
					.supplyAsync(() -> http.post("/orders").json(orderRequest).send());
				await().atMost(TIMEOUT).until(() -> !orderIds(jdbc, customer).isEmpty());
				orderId = orderIds(jdbc, customer).get(0);
				crashing.awaitLog("Crash window before-publish: holding the event of key #"
						+ KeyHashes.shortHash("order-placed:" + orderId) + " ");
				assertThat(unsentEvents(jdbc)).isOne();
				String shippedCustomer = "hold-after-commit-" + UUID.randomUUID().toString().substring(0, 8);
				HttpResponse<byte[]> shippedOrder = http.post("/orders")
					.json(order(mandate(http, cart(shippedCustomer, "EUR", item("SKU-3", 1, 900)))))
					.send();
				assertThat(shippedOrder.statusCode()).as(Http.text(shippedOrder)).isEqualTo(201);
				shippedId = Payments.json(shippedOrder).get("id").asString();
				crashing.awaitLog("Crash window after-commit: holding order event of key #"
						+ KeyHashes.shortHash("order-placed:" + shippedId) + " ");
				assertThat(shipments(jdbc, shippedId)).isOne();
				crashing.kill();
				placing.handle((response, failure) -> null).join();
			}
			assertThat(shipments(jdbc, orderId)).isZero();
			try (SampleProcess restarted = start(database, "rabbit-outbox-restarted")) {
				await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> shipments(jdbc, orderId) == 1);
				await().atMost(TIMEOUT).until(() -> unsentEvents(jdbc) == 0);
				HttpResponse<byte[]> retry = restarted.http().post("/orders").json(orderRequest).send();
				assertThat(retry.statusCode()).as(Http.text(retry)).isEqualTo(201);
				assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
				// The unacknowledged message comes again and is answered from the consumer's record.
				await().atMost(TIMEOUT).until(() -> replayedShipments(restarted.http()) == 1);
			}
			// Stopped, the instance leaves no unacknowledged message behind: every one was acknowledged.
			assertThat(broker.getQueueInfo(SHIPMENT_QUEUE).getMessageCount()).isZero();
			assertThat(shipments(jdbc, orderId)).isOne();
			assertThat(shipments(jdbc, shippedId)).isOne();
			assertThat(jdbc.queryForObject("SELECT count(*) FROM event_publication", Long.class)).isEqualTo(2);
			assertThat(unsentEvents(jdbc)).isZero();
		}
		finally {
			broker.deleteQueue(SHIPMENT_QUEUE);
			broker.deleteExchange(ORDER_EXCHANGE);
			connections.destroy();
		}
	}

	private static SampleProcess start(PostgresTestDatabase database, String name, String... arguments) {
		List<String> all = new java.util.ArrayList<>(List.of("--spring.rabbitmq.host=127.0.0.1",
				"--sample.rabbit.order-exchange=" + ORDER_EXCHANGE, "--sample.rabbit.shipment-queue=" + SHIPMENT_QUEUE,
				"--sample.rabbit.exchange=payments.crash." + RUN, "--sample.rabbit.ledger-queue=ledger.crash." + RUN));
		all.addAll(List.of(arguments));
		return SampleProcess.start(database, "rabbit", name, all.toArray(String[]::new));
	}

	private static String mandate(Http http, String cart) {
		HttpResponse<byte[]> mandate = http.post("/cart-mandates").json(cart).send();
		assertThat(mandate.statusCode()).as(Http.text(mandate)).isEqualTo(201);
		return Payments.json(mandate).get("id").asString();
	}

	private static double replayedShipments(Http http) {
		HttpResponse<byte[]> metric = http
			.get("/actuator/metrics/idempotency.requests?tag=operation:ship-order&tag=outcome:replayed")
			.send();
		return Payments.json(metric).get("measurements").get(0).get("value").asDouble();
	}

	private static List<String> orderIds(JdbcTemplate jdbc, String customer) {
		return jdbc.queryForList("SELECT CAST(id AS VARCHAR) FROM orders WHERE customer_id = ?", String.class,
				customer);
	}

	private static long unsentEvents(JdbcTemplate jdbc) {
		return jdbc.queryForObject("SELECT count(*) FROM event_publication WHERE completion_date IS NULL", Long.class);
	}

	private static long shipments(JdbcTemplate jdbc, String orderId) {
		return jdbc.queryForObject("SELECT count(*) FROM shipment WHERE order_id = ?", Long.class, orderId);
	}

}
