package io.github.idempotency.sample.webhooks;

/**
 * Thrown when a gateway event arrived before the event it follows, such as a refund before the
 * success it refunds. It is transient: its {@code 409} releases the key, so that the gateway's
 * redelivery runs again and applies the event once the charge has reached the state it needs.
 */
public class GatewayEventOutOfOrderException extends RefusedGatewayEventException {

	public GatewayEventOutOfOrderException(String transactionId, GatewayEventType event, GatewayPaymentState state) {
		super("Transaction " + transactionId + " is " + state + ": " + event.value()
				+ " cannot apply yet; deliver it again once the event before it has been applied.", transactionId,
				event, state);
	}

}
