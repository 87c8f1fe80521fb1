package io.github.idempotency.sample.webhooks;

import java.time.Instant;

/**
 * The answer to a gateway webhook whose event was applied; a redelivery gets the same bytes.
 *
 * @param gateway the gateway
 * @param transactionId the gateway's id of the charge
 * @param paymentId the payment the charge belongs to
 * @param event the event's name
 * @param from the charge's state before the event
 * @param to the charge's state after it
 * @param appliedAt when the event was applied
 */
public record GatewayEventReceipt(String gateway, String transactionId, long paymentId, String event,
		GatewayPaymentState from, GatewayPaymentState to, Instant appliedAt) {

	static GatewayEventReceipt of(String transactionId, long paymentId, AppliedGatewayEvent applied) {
		return new GatewayEventReceipt(GatewayWebhookKeys.GATEWAY, transactionId, paymentId, applied.event(),
				applied.from(), applied.to(), applied.appliedAt());
	}

}
