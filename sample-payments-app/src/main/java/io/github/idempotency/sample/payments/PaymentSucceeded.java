package io.github.idempotency.sample.payments;

/**
 * Published, as an application event, each time a payment request ends with the customer charged.
 * A retry that runs the request again publishes it again, so its consumers must be idempotent.
 *
 * @param paymentId the payment id
 * @param tenant the payment's tenant
 * @param customerId the customer charged
 * @param amount the amount in minor units
 * @param currency the ISO 4217 currency code
 * @param gatewayChargeId the gateway's charge id
 */
public record PaymentSucceeded(long paymentId, String tenant, String customerId, long amount, String currency,
		String gatewayChargeId) {

	static PaymentSucceeded of(Payment payment) {
		return new PaymentSucceeded(payment.getId(), payment.getTenantId(), payment.getCustomerId(),
				payment.getAmount(), payment.getCurrency(), payment.getGatewayChargeId());
	}

}
