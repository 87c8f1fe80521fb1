package io.github.idempotency.sample.sessions;

/**
 * One line of a cart update: the quantity a sku should have from now on.
 *
 * @param sku the sku
 * @param quantity the new quantity; {@code 0} removes the sku from the cart
 */
public record CartChange(String sku, Integer quantity) {

}
