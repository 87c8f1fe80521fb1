package io.github.idempotency.sample.orders;

/**
 * The body of {@code POST /orders}.
 *
 * @param cartMandateId the mandate whose cart is ordered
 */
public record CreateOrderRequest(String cartMandateId) {

}
