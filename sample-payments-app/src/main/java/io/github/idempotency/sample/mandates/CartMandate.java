package io.github.idempotency.sample.mandates;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A customer's commitment to buy a cart at its prices until the mandate expires.
 *
 * @param id the mandate id, such as {@code cm_3f2a...}
 * @param customerId the customer
 * @param currency the ISO 4217 code of the prices
 * @param items the lines of the cart, sorted by sku
 * @param total the sum of quantity times unit price, in minor units
 * @param cartHash the SHA-256 of the cart's canonical form, see {@link CartHasher}
 * @param createdAt when the mandate was created
 * @param expiresAt when the mandate stops being usable for an order
 */
public record CartMandate(String id, String customerId, String currency, List<CartItem> items, long total,
		String cartHash, Instant createdAt, Instant expiresAt) {

	/**
	 * How long a mandate may be turned into an order, so that prices do not go stale.
	 */
	public static final Duration VALIDITY = Duration.ofMinutes(30);

	/**
	 * Return whether the mandate has expired at the given instant.
	 * @param now the instant
	 * @return whether it can no longer be ordered
	 */
	public boolean isExpiredAt(Instant now) {
		return !now.isBefore(this.expiresAt);
	}

}
