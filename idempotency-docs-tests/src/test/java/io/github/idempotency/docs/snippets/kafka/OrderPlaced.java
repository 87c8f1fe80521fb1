package io.github.idempotency.docs.snippets.kafka;

/**
 * An order-placed event.
 *
 * @param orderId the order
 * @param amount its amount in cents
 */
public record OrderPlaced(String orderId, long amount) {
}
