package io.github.idempotency.sample.fulfilment;

import java.time.Instant;

/**
 * A scheduled shipment, and the reply to the {@link OrderPlaced} event that scheduled it.
 *
 * @param id the shipment's id
 * @param orderId the order it ships
 * @param customerId its customer
 * @param items how many items it carries
 * @param trackingNumber the carrier's tracking number
 * @param scheduledAt when it was scheduled
 */
public record Shipment(long id, String orderId, String customerId, int items, String trackingNumber,
		Instant scheduledAt) {
}
