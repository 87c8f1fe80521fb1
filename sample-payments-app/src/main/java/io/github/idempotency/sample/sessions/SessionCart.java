package io.github.idempotency.sample.sessions;

import java.util.List;

/**
 * The cart of a session, as {@code PATCH} and {@code GET /sessions/{id}/cart} answer it.
 *
 * @param sessionId the session
 * @param sequence the number of the last update applied, {@code 0} before the first
 * @param items the skus in the cart, sorted by sku
 */
public record SessionCart(String sessionId, long sequence, List<Item> items) {

	/**
	 * A sku in the cart.
	 *
	 * @param sku the sku
	 * @param quantity how many, 1 or more
	 */
	public record Item(String sku, int quantity) {

	}

}
