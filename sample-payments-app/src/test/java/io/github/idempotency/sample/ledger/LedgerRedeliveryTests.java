package io.github.idempotency.sample.ledger;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.Outcome;
import io.github.idempotency.sample.support.Payments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * However often the broker delivers a {@code payment.succeeded} event, published again or
 * redelivered after a lost acknowledgement, the payment gets one ledger entry; with two consumers,
 * a copy that arrives while another is being posted is requeued and answered later.
 */
class LedgerRedeliveryTests extends RabbitLedgerTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@Test
	void sameEventPublishedFiveTimesPostsOneLedgerEntry() {
		long paymentId = newPaymentId();
		String messageId = "payment-succeeded:" + paymentId;
		for (int i = 0; i < 5; i++) {
			publish(event(paymentId, 2999), messageId);
		}
		await().atMost(TIMEOUT).until(() -> acked(messageId) == 5);
		assertThat(this.probe.deliveries(messageId)).filteredOn((delivery) -> !delivery.outcome().equals("acked"))
			.allSatisfy((delivery) -> assertThat(delivery.outcome()).isEqualTo("IdempotencyKeyInProgressException"));
		assertThat(this.db.ledgerEntries(paymentId)).isOne();
		assertThat(this.gate.count(Outcome.EXECUTED)).isOne();
		assertThat(this.gate.count(Outcome.REPLAYED)).isEqualTo(4);
		JsonNode ledger = Payments.json(this.http.get("/ledger?customerId=cust-" + paymentId).send());
		assertThat(ledger.size()).isOne();
		assertThat(ledger.get(0).get("paymentId").asLong()).isEqualTo(paymentId);
		assertThat(ledger.get(0).get("amount").asLong()).isEqualTo(2999);
	}

	@Test
	void eventRedeliveredAfterItsAcknowledgementWasLostPostsOneLedgerEntry() {
		long paymentId = newPaymentId();
		String messageId = "payment-succeeded:" + paymentId;
		this.probe.loseNextAck(messageId);
		publish(event(paymentId, 1500), messageId);
		await().atMost(TIMEOUT).until(() -> this.probe.deliveries(messageId).size() == 2);
		assertThat(this.probe.deliveries(messageId)).extracting(DeliveryProbe.Delivery::outcome)
			.containsExactly("ack-lost", "acked");
		assertThat(this.probe.deliveries(messageId)).extracting(DeliveryProbe.Delivery::redelivered)
			.containsExactly(false, true);
		assertThat(this.db.ledgerEntries(paymentId)).isOne();
		assertThat(this.gate.count(Outcome.EXECUTED)).isOne();
		assertThat(this.gate.count(Outcome.REPLAYED)).isOne();
		assertThat(this.db.record("post-ledger-entry", "ledger:" + paymentId)).containsEntry("status", "COMPLETED");
	}

	private long acked(String messageId) {
		return this.probe.deliveries(messageId).stream().filter((delivery) -> delivery.outcome().equals("acked")).count();
	}

}
