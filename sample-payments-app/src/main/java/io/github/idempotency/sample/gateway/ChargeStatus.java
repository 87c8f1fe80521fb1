package io.github.idempotency.sample.gateway;

/**
 * The final outcome of a charge at the gateway.
 */
public enum ChargeStatus {

	/**
	 * The customer was charged.
	 */
	SUCCEEDED,

	/**
	 * The gateway declined the charge; the customer was not charged.
	 */
	DECLINED

}
