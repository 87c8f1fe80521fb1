package io.github.idempotency.sample.webhooks;

/**
 * Where a charge stands by the gateway's webhooks, and the transitions its events make:
 * {@code PENDING -> SUCCEEDED -> REFUNDED} and {@code PENDING -> FAILED}. No other transition
 * exists, and there is no way back.
 */
public enum GatewayPaymentState {

	/**
	 * The gateway accepted the charge and has not reported on it since.
	 */
	PENDING,

	/**
	 * The charge settled.
	 */
	SUCCEEDED,

	/**
	 * The charge failed to settle; final.
	 */
	FAILED,

	/**
	 * The settled charge was refunded; final.
	 */
	REFUNDED;

	/**
	 * Return the state an event moves this one to.
	 * @param event the event
	 * @return the next state, or {@code null} if the event is no transition from this state
	 */
	public GatewayPaymentState after(GatewayEventType event) {
		return switch (event) {
			case PAYMENT_SUCCEEDED -> (this == PENDING) ? SUCCEEDED : null;
			case PAYMENT_FAILED -> (this == PENDING) ? FAILED : null;
			case REFUND_PROCESSED -> (this == SUCCEEDED) ? REFUNDED : null;
		};
	}

	/**
	 * Return whether an event that is no transition from this state is one from a state this one
	 * can still reach: it arrived early, as a refund before the success it refunds.
	 * @param event the event
	 * @return whether the event may apply later
	 */
	public boolean acceptsLater(GatewayEventType event) {
		for (GatewayEventType step : GatewayEventType.values()) {
			GatewayPaymentState next = after(step);
			if (next != null && (next.after(event) != null || next.acceptsLater(event))) {
				return true;
			}
		}
		return false;
	}

}
