package io.github.idempotency.sample.mandates;

/**
 * One line of a cart: a product and how many of it at what price.
 *
 * @param sku the product's stock keeping unit
 * @param quantity how many, positive
 * @param unitPrice the price of one, in minor units of the cart's currency, not negative
 */
public record CartItem(String sku, Integer quantity, Long unitPrice) {

}
