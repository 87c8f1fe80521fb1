package io.github.idempotency.sample.ledger;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import org.springframework.stereotype.Service;

import io.github.idempotency.IdempotencyKeyInProgressException;
import io.github.idempotency.IdempotentOperationFailedException;
import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.sample.payments.PaymentSucceeded;

/**
 * Posts succeeded payments to the ledger, once per payment however often the event arrives: the
 * key is derived from the payment id, so no header is needed, and a duplicate gets the first
 * entry back without a second insert.
 */
@Service
public class LedgerService {

	/**
	 * Name of the idempotent operation that posts ledger entries.
	 */
	public static final String POST_OPERATION = "post-ledger-entry";

	private final LedgerRepository entries;

	LedgerService(LedgerRepository entries) {
		this.entries = entries;
	}

	/**
	 * Post a payment to the ledger.
	 * @param event the payment event
	 * @return the entry, new or, for a duplicate, the first one
	 * @throws InvalidLedgerEventException if the event cannot be posted
	 * @throws io.github.idempotency.IdempotencyKeyInProgressException if the same payment is
	 * being posted right now, so that the message is delivered again later
	 * @throws io.github.idempotency.IdempotentOperationFailedException if an earlier delivery
	 * of the event failed with an {@link InvalidLedgerEventException}
	 */
	@Idempotent(operation = POST_OPERATION, key = "'ledger:' + #event.paymentId()")
	public LedgerEntry post(PaymentSucceeded event) {
		if (event.amount() <= 0) {
			throw new InvalidLedgerEventException("Payment " + event.paymentId() + " has no positive amount.");
		}
		if (event.currency() == null || event.customerId() == null) {
			throw new InvalidLedgerEventException("Payment " + event.paymentId() + " has no currency or customer.");
		}
		return this.entries.insert(new LedgerEntry(0, event.paymentId(), event.customerId(), event.amount(),
				event.currency(), event.gatewayChargeId(), Instant.now().truncatedTo(ChronoUnit.MILLIS)));
	}

	/**
	 * Return ledger entries, oldest first.
	 * @param customerId the customer whose entries to return, or {@code null} for all
	 * @return the entries
	 */
	public List<LedgerEntry> entries(String customerId) {
		return (customerId != null) ? this.entries.findByCustomerId(customerId) : this.entries.findAll();
	}

}
