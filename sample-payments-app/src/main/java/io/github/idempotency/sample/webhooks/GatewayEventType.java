package io.github.idempotency.sample.webhooks;

import java.util.Arrays;
import java.util.Optional;

/**
 * The events the payment gateway reports about a charge.
 */
public enum GatewayEventType {

	/**
	 * The charge settled: the money is ours.
	 */
	PAYMENT_SUCCEEDED("payment.succeeded"),

	/**
	 * The charge failed to settle: the customer keeps the money.
	 */
	PAYMENT_FAILED("payment.failed"),

	/**
	 * The settled charge was refunded to the customer.
	 */
	REFUND_PROCESSED("refund.processed");

	private final String value;

	GatewayEventType(String value) {
		this.value = value;
	}

	/**
	 * Return the name the gateway gives the event.
	 * @return the name, such as {@code payment.succeeded}
	 */
	public String value() {
		return this.value;
	}

	/**
	 * Return the event type the gateway names so.
	 * @param value the name, such as {@code payment.succeeded}
	 * @return the type, or empty if the name is no event type
	 */
	public static Optional<GatewayEventType> of(String value) {
		return Arrays.stream(values()).filter((type) -> type.value.equals(value)).findFirst();
	}

}
