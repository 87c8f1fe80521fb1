package io.github.idempotency.sample.webhooks;

/**
 * Thrown when a gateway event is no transition from the charge's current state; nothing changes.
 */
public abstract class RefusedGatewayEventException extends RuntimeException {

	private final String transactionId;

	private final GatewayEventType event;

	private final GatewayPaymentState state;

	protected RefusedGatewayEventException(String message, String transactionId, GatewayEventType event,
			GatewayPaymentState state) {
		super(message);
		this.transactionId = transactionId;
		this.event = event;
		this.state = state;
	}

	public String getTransactionId() {
		return this.transactionId;
	}

	public GatewayEventType getEvent() {
		return this.event;
	}

	public GatewayPaymentState getState() {
		return this.state;
	}

}
