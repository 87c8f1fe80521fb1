package io.github.idempotency.sample.webhooks;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The body of a payment gateway webhook, {@code POST /webhooks/gateway}.
 *
 * @param type {@code payment.succeeded}, {@code payment.failed} or {@code refund.processed}
 * @param transactionId the gateway's id of the charge the event is about, the
 * {@code gatewayChargeId} of a payment
 */
public record GatewayEvent(String type, String transactionId) {

	private static final Pattern TRANSACTION_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

	/**
	 * Return the event's type, once the event is known to name a valid type and transaction.
	 * @return the type
	 * @throws InvalidGatewayEventException if the event is malformed
	 */
	GatewayEventType validType() {
		List<String> errors = new ArrayList<>();
		GatewayEventType valid = GatewayEventType.of(this.type).orElse(null);
		if (valid == null) {
			errors.add("type must be payment.succeeded, payment.failed or refund.processed");
		}
		if (this.transactionId == null || !TRANSACTION_ID.matcher(this.transactionId).matches()) {
			errors.add("transactionId is required: 1 to 64 letters, digits, '_' or '-'");
		}
		if (!errors.isEmpty()) {
			throw new InvalidGatewayEventException(errors);
		}
		return valid;
	}

}
