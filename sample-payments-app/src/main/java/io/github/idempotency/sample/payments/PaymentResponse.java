package io.github.idempotency.sample.payments;

/**
 * A payment as the API shows it.
 *
 * @param id the payment id
 * @param customerId the customer charged
 * @param amount the amount in minor units
 * @param currency the ISO 4217 currency code
 * @param status where the payment stands
 * @param gatewayChargeId the gateway's charge id, once the gateway answered
 */
public record PaymentResponse(Long id, String customerId, long amount, String currency, PaymentStatus status,
		String gatewayChargeId) {

	static PaymentResponse of(Payment payment) {
		return new PaymentResponse(payment.getId(), payment.getCustomerId(), payment.getAmount(),
				payment.getCurrency(), payment.getStatus(), payment.getGatewayChargeId());
	}

}
