package io.github.idempotency.sample.sync;

import java.time.Instant;

/**
 * A product as the sync API answers it.
 *
 * @param id the product id, the sku of cart items
 * @param name the name
 * @param price the price in minor units
 * @param currency the ISO 4217 code of the price
 * @param version the version, the {@code baseVersion} of the next update built on it
 * @param updatedAt when a synchronised field last changed
 */
public record ProductView(String id, String name, long price, String currency, long version, Instant updatedAt) {

	static ProductView of(Product product) {
		return new ProductView(product.getId(), product.getName(), product.getPrice(), product.getCurrency(),
				product.getVersion(), product.getUpdatedAt());
	}

}
