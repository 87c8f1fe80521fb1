package io.github.idempotency.sample.sync;

/**
 * The body of {@code PUT /sync/products/{id}}: the product as the shop has it, and the version of
 * ours that the shop's change was built on.
 *
 * @param baseVersion the version the update was built on: {@code 0} for a product we do not have
 * yet, else the {@code version} last read from us
 * @param name the product's name
 * @param price the product's price in minor units of {@code currency}
 * @param currency the ISO 4217 code of {@code price}
 */
public record ProductSyncRequest(Long baseVersion, String name, Long price, String currency) {

}
