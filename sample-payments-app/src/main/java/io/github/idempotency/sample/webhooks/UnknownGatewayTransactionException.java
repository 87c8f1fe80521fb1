package io.github.idempotency.sample.webhooks;

/**
 * Thrown, before the key is claimed, when a gateway webhook is about a transaction that is not a
 * charge the gateway accepted for one of our payments: unknown, declined, or not recorded yet.
 */
public class UnknownGatewayTransactionException extends RuntimeException {

	private final String transactionId;

	public UnknownGatewayTransactionException(String transactionId) {
		super("No payment was charged with gateway transaction " + transactionId + ".");
		this.transactionId = transactionId;
	}

	public String getTransactionId() {
		return this.transactionId;
	}

}
