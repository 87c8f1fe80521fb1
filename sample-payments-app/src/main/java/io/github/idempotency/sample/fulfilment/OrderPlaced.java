package io.github.idempotency.sample.fulfilment;

/**
 * An {@code order-events} record: an order was placed and is to be shipped.
 *
 * @param orderId the order
 * @param customerId its customer
 * @param items how many items it has
 */
public record OrderPlaced(String orderId, String customerId, int items) {
}
