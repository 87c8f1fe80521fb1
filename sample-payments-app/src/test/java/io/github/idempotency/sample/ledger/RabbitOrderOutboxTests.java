package io.github.idempotency.sample.ledger;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;

import io.github.idempotency.sample.orders.OrderPlaced;
import io.github.idempotency.sample.support.Carts;
import io.github.idempotency.testsupport.Http;

import static io.github.idempotency.sample.support.Payments.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * In the {@code rabbit} profile the outbox sends every placed order's {@code OrderPlaced} to
 * RabbitMQ once its transaction committed, with its deduplication id as its
 * {@code Idempotency-Key}, and fulfilment ships it once: a retried order sends nothing more, and a
 * second delivery of the event ships nothing more.
 */
class RabbitOrderOutboxTests extends RabbitLedgerTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@Test
	void placedOrderIsSentThroughTheOutboxAndShippedOnceAndItsRetrySendsNothing() {
		String request = Carts.order(Carts.createMandate(this.http));
		HttpResponse<byte[]> order = this.http.post("/orders").json(request).send();
		assertThat(order.statusCode()).as(Http.text(order)).isEqualTo(201);
		String orderId = json(order).get("id").asString();
		await().atMost(TIMEOUT).until(() -> shipments(orderId) == 1);
		await().atMost(TIMEOUT).until(() -> publications(orderId, true) == 1);
		HttpResponse<byte[]> retry = this.http.post("/orders").json(request).send();
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(publications(orderId, false)).isOne();
		assertThat(this.db.record("ship-order", "order-placed:" + orderId)).containsEntry("status", "COMPLETED");
		assertThat(shipments(orderId)).isOne();
	}

	@Test
	void secondDeliveryOfAnOrderEventShipsNothingMore() {
		String request = Carts.order(Carts.createMandate(this.http));
		HttpResponse<byte[]> order = this.http.post("/orders").json(request).send();
		String orderId = json(order).get("id").asString();
		await().atMost(TIMEOUT).until(() -> shipments(orderId) == 1);
		Map<String, Object> record = this.db.record("ship-order", "order-placed:" + orderId);
		// The mandate's cart has three items.
		OrderPlaced event = new OrderPlaced(orderId, json(order).get("customerId").asString(), 3);
		this.rabbit.convertAndSend(this.names.orderExchange(), orderId, event, (Message message) -> {
			message.getMessageProperties().setHeader("Idempotency-Key", event.deduplicationId());
			message.getMessageProperties().setMessageId(event.deduplicationId());
			return message;
		});
		await().atMost(TIMEOUT).until(() -> this.probe.deliveries(event.deduplicationId()).size() == 2);
		assertThat(this.probe.deliveries(event.deduplicationId())).extracting(DeliveryProbe.Delivery::outcome)
			.containsExactly("acked", "acked");
		assertThat(shipments(orderId)).isOne();
		assertThat(this.db.record("ship-order", "order-placed:" + orderId)).usingRecursiveComparison().isEqualTo(record);
	}

	private long shipments(String orderId) {
		return this.jdbc.queryForObject("SELECT count(*) FROM shipment WHERE order_id = ?", Long.class, orderId);
	}

	private long publications(String orderId, boolean completed) {
		return this.jdbc.queryForObject("SELECT count(*) FROM event_publication WHERE serialized_event LIKE ?"
				+ (completed ? " AND completion_date IS NOT NULL" : ""), Long.class, "%\"orderId\":\"" + orderId + "\"%");
	}

}
