package io.github.idempotency.sample.orders;

import java.time.Instant;

/**
 * Thrown when an order is placed from a mandate that has expired; final, so its answer is stored
 * and replayed.
 */
public class CartMandateExpiredException extends RuntimeException {

	private final String cartMandateId;

	private final Instant expiredAt;

	public CartMandateExpiredException(String cartMandateId, Instant expiredAt) {
		super("Cart mandate " + cartMandateId + " expired at " + expiredAt + "; create a new mandate for the cart.");
		this.cartMandateId = cartMandateId;
		this.expiredAt = expiredAt;
	}

	public String getCartMandateId() {
		return this.cartMandateId;
	}

	public Instant getExpiredAt() {
		return this.expiredAt;
	}

}
