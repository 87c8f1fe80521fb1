package io.github.idempotency.sample.payments;

/**
 * Where a payment stands.
 */
public enum PaymentStatus {

	/**
	 * Recorded, and the gateway has not answered yet.
	 */
	PENDING,

	/**
	 * The gateway charged the customer.
	 */
	SUCCEEDED,

	/**
	 * The gateway declined the charge.
	 */
	DECLINED

}
