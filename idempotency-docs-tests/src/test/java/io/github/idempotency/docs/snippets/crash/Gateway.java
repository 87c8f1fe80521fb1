package io.github.idempotency.docs.snippets.crash;

/**
 * A payment gateway: an effect outside the database.
 */
interface Gateway {

	GatewayCharge charge(ChargeRequest request);

	record ChargeRequest(String idempotencyKey, long amount) {
	}

	record GatewayCharge(String transactionId) {
	}

}
