package io.github.idempotency.sample.webhooks;

/**
 * Thrown when a gateway event can never apply to the charge, such as a refund of a failed charge
 * or a success after a failure. It is final (listed in
 * {@code idempotency.classification.final-exceptions}): its {@code 409} is stored and every
 * redelivery gets it.
 */
public class InvalidGatewayTransitionException extends RefusedGatewayEventException {

	public InvalidGatewayTransitionException(String transactionId, GatewayEventType event,
			GatewayPaymentState state) {
		super("Transaction " + transactionId + " is " + state + ": " + event.value()
				+ " is not a transition from it, and never will be.", transactionId, event, state);
	}

}
