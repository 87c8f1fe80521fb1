package io.github.idempotency.sample.webhooks;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.github.idempotency.IdempotencyContext;

/**
 * Applies the payment gateway's events to the state of its charges, one event at a time per
 * charge, by the state machine of {@link GatewayPaymentState}.
 */
@Service
public class GatewayPaymentService {

	/**
	 * The name of the reference that leads from a gateway transaction to the keys of its events.
	 */
	static final String TRANSACTION_REFERENCE = "gateway_transaction";

	private final GatewayPaymentRepository payments;

	GatewayPaymentService(GatewayPaymentRepository payments) {
		this.payments = payments;
	}

	/**
	 * Apply an event. An event of a type already applied to the charge, as after a crash that
	 * lost its answer or once its idempotency record has expired, changes nothing and answers with
	 * the receipt of its first application.
	 * @param event the event
	 * @return the receipt of the event
	 * @throws InvalidGatewayEventException if the event is malformed
	 * @throws UnknownGatewayTransactionException if no payment was charged with the transaction
	 * @throws GatewayEventOutOfOrderException if the event may apply once an earlier one has
	 * @throws InvalidGatewayTransitionException if the event can never apply to the charge
	 */
	@Transactional
	public GatewayEventReceipt apply(GatewayEvent event) {
		GatewayEventType type = event.validType();
		String transactionId = event.transactionId();
		IdempotencyContext context = IdempotencyContext.current();
		if (context != null) {
			context.reference(TRANSACTION_REFERENCE, transactionId);
		}
		long paymentId = this.payments.lockChargedPayment(transactionId)
			.orElseThrow(() -> new UnknownGatewayTransactionException(transactionId));
		AppliedGatewayEvent applied = this.payments.applied(transactionId, type).orElse(null);
		if (applied != null) {
			return GatewayEventReceipt.of(transactionId, paymentId, applied);
		}
		GatewayPaymentState state = this.payments.state(transactionId).orElse(GatewayPaymentState.PENDING);
		GatewayPaymentState next = state.after(type);
		if (next == null) {
			throw state.acceptsLater(type) ? new GatewayEventOutOfOrderException(transactionId, type, state)
					: new InvalidGatewayTransitionException(transactionId, type, state);
		}
		applied = new AppliedGatewayEvent(type.value(), state, next, Instant.now().truncatedTo(ChronoUnit.MILLIS));
		this.payments.apply(transactionId, paymentId, applied);
		return GatewayEventReceipt.of(transactionId, paymentId, applied);
	}

	/**
	 * Return a charge with its state and events.
	 * @param transactionId the gateway's transaction id
	 * @return the charge
	 * @throws UnknownGatewayTransactionException if no payment was charged with the transaction
	 */
	@Transactional(readOnly = true)
	public GatewayPayment find(String transactionId) {
		long paymentId = this.payments.chargedPayment(transactionId)
			.orElseThrow(() -> new UnknownGatewayTransactionException(transactionId));
		return new GatewayPayment(GatewayWebhookKeys.GATEWAY, transactionId, paymentId,
				this.payments.state(transactionId).orElse(GatewayPaymentState.PENDING),
				this.payments.events(transactionId));
	}

}
