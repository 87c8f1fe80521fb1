package io.github.idempotency.sample.webhooks;

import java.time.Instant;

/**
 * An event that moved a charge from one state to the next.
 *
 * @param event the event's name, such as {@code payment.succeeded}
 * @param from the state before
 * @param to the state after
 * @param appliedAt when it was applied
 */
public record AppliedGatewayEvent(String event, GatewayPaymentState from, GatewayPaymentState to,
		Instant appliedAt) {

}
