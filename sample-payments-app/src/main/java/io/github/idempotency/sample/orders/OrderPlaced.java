package io.github.idempotency.sample.orders;

/**
 * The event of a placed order, published in the transaction that places it; with the
 * {@code kafka} or {@code rabbit} profile, the outbox externalizes it to {@code order-events}.
 *
 * @param orderId the order
 * @param customerId its customer
 * @param items how many items it has
 */
public record OrderPlaced(String orderId, String customerId, int items) {

	/**
	 * Return the deduplication id of the event: the same for every delivery of it, which the
	 * consuming {@code @Idempotent} listener takes as its idempotency key.
	 * @return {@code order-placed:<orderId>}
	 */
	public String deduplicationId() {
		return "order-placed:" + this.orderId;
	}

}
