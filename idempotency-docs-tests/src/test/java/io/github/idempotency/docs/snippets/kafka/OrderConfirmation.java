package io.github.idempotency.docs.snippets.kafka;

/**
 * The reply to an order-placed event.
 *
 * @param orderId the order
 * @param confirmation the confirmation number
 */
public record OrderConfirmation(String orderId, String confirmation) {
}
