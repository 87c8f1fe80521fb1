package io.github.idempotency.sample.ledger;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.github.idempotency.Outcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A duplicate that reaches the second consumer while the first delivery is still being posted
 * fails with {@code IdempotencyKeyInProgressException}, is requeued by the broker, and once the
 * first delivery has finished is answered from the stored entry: one ledger entry.
 */
class LedgerInProgressTests extends RabbitLedgerTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@Test
	void duplicateWhileTheFirstIsBeingPostedIsRequeuedAndThenAnsweredFromTheStoredEntry() {
		long paymentId = newPaymentId();
		String messageId = "payment-succeeded:" + paymentId;
		this.gate.holdNextExecution();
		publish(event(paymentId, 4200), messageId);
		await().atMost(TIMEOUT).until(this.gate::isHolding);
		publish(event(paymentId, 4200), messageId);
		await().atMost(TIMEOUT).until(() -> this.probe.deliveries(messageId)
			.stream()
			.anyMatch((delivery) -> delivery.outcome().equals("IdempotencyKeyInProgressException")));
		assertThat(this.db.ledgerEntries(paymentId)).isZero();
		this.gate.release();
		await().atMost(TIMEOUT).until(() -> this.probe.deliveries(messageId)
			.stream()
			.filter((delivery) -> delivery.outcome().equals("acked"))
			.count() == 2);
		assertThat(this.probe.deliveries(messageId)).filteredOn((delivery) -> !delivery.outcome().equals("acked"))
			.allSatisfy((delivery) -> assertThat(delivery.outcome()).isEqualTo("IdempotencyKeyInProgressException"));
		// The redelivered duplicate is answered from the stored entry; it may be acknowledged before
		// the first delivery's acknowledgement is recorded, so it need not be the last one seen.
		assertThat(this.probe.deliveries(messageId))
			.anyMatch((delivery) -> delivery.outcome().equals("acked") && delivery.redelivered());
		assertThat(this.db.ledgerEntries(paymentId)).isOne();
		assertThat(this.gate.count(Outcome.EXECUTED)).isOne();
		assertThat(this.gate.count(Outcome.CONFLICT)).isPositive();
		assertThat(this.gate.count(Outcome.REPLAYED)).isOne();
	}

}
