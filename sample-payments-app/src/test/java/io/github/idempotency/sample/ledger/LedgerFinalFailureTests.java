package io.github.idempotency.sample.ledger;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.github.idempotency.Outcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An event the ledger can never post, or one that contradicts the entry of its payment, is
 * rejected without requeueing, and a final failure is stored so that a redelivery gets it without
 * running.
 */
class LedgerFinalFailureTests extends RabbitLedgerTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@Test
	void eventThatCannotBePostedIsRejectedAndItsStoredFailureAnswersTheNextDelivery() {
		long paymentId = newPaymentId();
		String messageId = "payment-succeeded:" + paymentId;
		publish(event(paymentId, 0), messageId);
		await().atMost(TIMEOUT).until(() -> this.probe.deliveries(messageId).size() == 1);
		publish(event(paymentId, 0), messageId);
		await().atMost(TIMEOUT).until(() -> this.probe.deliveries(messageId).size() == 2);
		assertThat(this.probe.deliveries(messageId)).extracting(DeliveryProbe.Delivery::outcome)
			.containsExactly("InvalidLedgerEventException", "IdempotentOperationFailedException");
		assertThat(this.probe.deliveries(messageId)).noneMatch(DeliveryProbe.Delivery::redelivered);
		assertThat(this.gate.count(Outcome.EXECUTED)).isOne();
		assertThat(this.gate.count(Outcome.REPLAYED)).isOne();
		assertThat(this.db.record("post-ledger-entry", "ledger:" + paymentId)).containsEntry("status", "COMPLETED")
			.containsEntry("response_status", 500);
		assertThat(messagesInQueue()).isZero();
		assertThat(this.db.ledgerEntries()).isZero();
	}

	@Test
	void eventThatContradictsThePostedEntryOfItsPaymentIsRejected() {
		long paymentId = newPaymentId();
		String messageId = "payment-succeeded:" + paymentId;
		publish(event(paymentId, 2999), messageId);
		await().atMost(TIMEOUT).until(() -> this.probe.deliveries(messageId).size() == 1);
		publish(event(paymentId, 1), messageId);
		await().atMost(TIMEOUT).until(() -> this.probe.deliveries(messageId).size() == 2);
		assertThat(this.probe.deliveries(messageId)).extracting(DeliveryProbe.Delivery::outcome)
			.containsExactly("acked", "IdempotencyKeyMismatchException");
		assertThat(this.gate.count(Outcome.MISMATCH)).isOne();
		assertThat(messagesInQueue()).isZero();
		assertThat(this.db.ledgerEntries(paymentId)).isOne();
	}

}
