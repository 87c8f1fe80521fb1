package io.github.idempotency.sample.webhooks;

import java.util.List;

/**
 * A charge as {@code GET /webhooks/gateway/payments/{transactionId}} shows it: its state by the
 * gateway's webhooks and the events that made it.
 *
 * @param gateway the gateway
 * @param transactionId the gateway's id of the charge
 * @param paymentId the payment the charge belongs to
 * @param state the charge's state
 * @param events the events applied, in the order applied
 */
public record GatewayPayment(String gateway, String transactionId, long paymentId, GatewayPaymentState state,
		List<AppliedGatewayEvent> events) {

}
