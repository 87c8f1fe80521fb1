package io.github.idempotency.sample.ledger;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import static io.github.idempotency.sample.support.Payments.body;
import static io.github.idempotency.sample.support.Payments.json;
import static io.github.idempotency.sample.support.Payments.newKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * In the {@code rabbit} profile every succeeded payment is published as {@code payment.succeeded}
 * and posted to the ledger once: a replayed payment publishes nothing, a payment that failed
 * before the charge publishes on its retry, and a declined one never.
 */
class PaymentLedgerTests extends RabbitLedgerTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@Test
	void succeededPaymentIsPostedToTheLedgerOnceAndItsReplayPublishesNothing() {
		String key = newKey();
		String request = body("c-" + UUID.randomUUID(), 2999, "USD");
		HttpResponse<byte[]> payment = this.http.post("/payments").key(key).json(request).send();
		assertThat(payment.statusCode()).isEqualTo(201);
		long paymentId = json(payment).get("id").asLong();
		String messageId = "payment-succeeded:" + paymentId;
		await().atMost(TIMEOUT).until(() -> this.probe.deliveries(messageId).size() == 1);
		HttpResponse<byte[]> replay = this.http.post("/payments").key(key).json(request).send();
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		awaitProcessedMarker();
		assertThat(this.probe.deliveries(messageId)).hasSize(1);
		assertThat(this.db.ledgerEntries(paymentId)).isOne();
		assertThat(json(this.http.get("/ledger").send()).get(0).get("gatewayChargeId").asString())
			.isEqualTo(json(payment).get("gatewayChargeId").asString());
	}

	@Test
	void paymentRetriedAfterAGatewayFailureIsPostedOnce() {
		String key = newKey();
		String request = body("flaky-" + UUID.randomUUID(), 1000, "EUR");
		HttpResponse<byte[]> failed = this.http.post("/payments").key(key).json(request).send();
		HttpResponse<byte[]> retry = this.http.post("/payments").key(key).json(request).send();
		assertThat(failed.statusCode()).isEqualTo(503);
		assertThat(retry.statusCode()).isEqualTo(201);
		long paymentId = json(retry).get("id").asLong();
		await().atMost(TIMEOUT).until(() -> this.db.ledgerEntries(paymentId) == 1);
		awaitProcessedMarker();
		assertThat(this.db.ledgerEntries(paymentId)).isOne();
	}

	@Test
	void declinedPaymentIsNotPosted() {
		HttpResponse<byte[]> declined = this.http.post("/payments")
			.key(newKey())
			.json(body("decline-" + UUID.randomUUID(), 1000, "EUR"))
			.send();
		assertThat(declined.statusCode()).isEqualTo(402);
		awaitProcessedMarker();
		assertThat(this.db.ledgerEntries(json(declined).get("paymentId").asLong())).isZero();
	}

	/**
	 * Publish a marker event and wait until the ledger posted it, so that whatever was published
	 * before it has been consumed too.
	 */
	private void awaitProcessedMarker() {
		long marker = newPaymentId();
		publish(event(marker, 1), "marker:" + marker);
		await().atMost(TIMEOUT).until(() -> this.db.ledgerEntries(marker) == 1);
	}

}
