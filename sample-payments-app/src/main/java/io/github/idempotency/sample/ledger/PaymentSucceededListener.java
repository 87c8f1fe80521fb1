package io.github.idempotency.sample.ledger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.AmqpRejectAndDontRequeueException;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

import io.github.idempotency.IdempotencyKeyMismatchException;
import io.github.idempotency.IdempotentOperationFailedException;
import io.github.idempotency.sample.payments.PaymentSucceeded;

/**
 * Consumes {@code payment.succeeded} events in the {@code rabbit} profile and posts each to the
 * ledger. RabbitMQ delivers at least once; {@link LedgerService#post} makes it once in effect. A
 * duplicate that arrives while the first delivery is still being posted fails with
 * {@code IdempotencyKeyInProgressException}, so the broker requeues it and it is answered from
 * the stored result later; an event that can never be posted, or that contradicts the event
 * already posted for its payment, is rejected without requeueing.
 */
@Component
@Profile("rabbit")
class PaymentSucceededListener {

	/**
	 * Id of the listener container.
	 */
	static final String ID = "ledger";

	private static final Logger logger = LoggerFactory.getLogger(PaymentSucceededListener.class);

	private final LedgerService ledger;

	PaymentSucceededListener(LedgerService ledger) {
		this.ledger = ledger;
	}

	@RabbitListener(id = ID, queues = "${sample.rabbit.ledger-queue:ledger.payment-succeeded}")
	void onPaymentSucceeded(PaymentSucceeded event) {
		try {
			LedgerEntry entry = this.ledger.post(event);
			logger.debug("Payment {} is ledger entry {}", event.paymentId(), entry.id());
		}
		catch (InvalidLedgerEventException | IdempotentOperationFailedException ex) {
			throw new AmqpRejectAndDontRequeueException("Payment " + event.paymentId() + " cannot be posted", ex);
		}
		catch (IdempotencyKeyMismatchException ex) {
			throw new AmqpRejectAndDontRequeueException(
					"Payment " + event.paymentId() + " was already posted with different details", ex);
		}
	}

}
