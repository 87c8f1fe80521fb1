package io.github.idempotency.sample.webhooks;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import io.github.idempotency.annotation.Idempotent;

/**
 * Receives the payment gateway's webhooks about its charges: the key is the transaction and the
 * event type, so each event is applied once however often the gateway delivers it, and the
 * charge moves through {@link GatewayPaymentState}. Requests reach this controller only once
 * their signature has been verified with the gateway's secret.
 */
@RestController
public class GatewayWebhookController {

	/**
	 * Name of the idempotent operation that handles gateway webhooks.
	 */
	public static final String OPERATION = "gateway-webhook";

	static final String PATH = "/webhooks/gateway";

	static final String SIGNATURE_HEADER = "X-Gateway-Signature";

	private final GatewayPaymentService payments;

	GatewayWebhookController(GatewayPaymentService payments) {
		this.payments = payments;
	}

	@Idempotent(operation = OPERATION, key = "@gatewayWebhookKeys.keyFor(#event)")
	@PostMapping(PATH)
	public GatewayEventReceipt receive(@RequestBody GatewayEvent event) {
		return this.payments.apply(event);
	}

	@GetMapping(PATH + "/payments/{transactionId}")
	public GatewayPayment payment(@PathVariable String transactionId) {
		return this.payments.find(transactionId);
	}

}
