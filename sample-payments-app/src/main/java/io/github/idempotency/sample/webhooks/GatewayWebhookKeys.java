package io.github.idempotency.sample.webhooks;

import org.springframework.stereotype.Component;

/**
 * Derives the idempotency key of a gateway webhook,
 * {@code webhook:{gateway}:{transactionId}:{eventType}}, so that each event about a charge is
 * handled once however often it is delivered. The key is read before anything is claimed, so a
 * malformed event, or one about a transaction we do not know, is refused here and stores nothing:
 * once the transaction is known, a redelivery runs.
 */
@Component("gatewayWebhookKeys")
public class GatewayWebhookKeys {

	/**
	 * The name of the sample's one payment gateway, the fake one that charges payments.
	 */
	static final String GATEWAY = "fakepay";

	private final GatewayPaymentRepository payments;

	GatewayWebhookKeys(GatewayPaymentRepository payments) {
		this.payments = payments;
	}

	/**
	 * Return the key of a gateway webhook; called from the key expression of
	 * {@code POST /webhooks/gateway}.
	 * @param event the event
	 * @return {@code webhook:fakepay:{transactionId}:{eventType}}
	 * @throws InvalidGatewayEventException if the event is malformed
	 * @throws UnknownGatewayTransactionException if no payment was charged with the transaction
	 */
	public String keyFor(GatewayEvent event) {
		GatewayEventType type = event.validType();
		if (this.payments.chargedPayment(event.transactionId()).isEmpty()) {
			throw new UnknownGatewayTransactionException(event.transactionId());
		}
		return "webhook:" + GATEWAY + ":" + event.transactionId() + ":" + type.value();
	}

}
