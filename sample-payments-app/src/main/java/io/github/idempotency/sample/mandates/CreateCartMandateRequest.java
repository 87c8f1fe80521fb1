package io.github.idempotency.sample.mandates;

import java.util.List;

/**
 * The body of {@code POST /cart-mandates}; apart from the customer, which the idempotency key
 * needs, it is validated after the key is claimed, so that a rejection is stored and replayed.
 *
 * @param customerId the customer who commits to the cart
 * @param currency the ISO 4217 code of every price in the cart
 * @param items the lines of the cart, in any order
 */
public record CreateCartMandateRequest(String customerId, String currency, List<CartItem> items) {

}
