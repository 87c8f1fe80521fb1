package io.github.idempotency.sample.webhooks;

import java.time.Instant;

/**
 * A shop event as {@code GET /webhooks/shop/events} lists it.
 *
 * @param eventId the shop's event id
 * @param topic the event's topic, or {@code null}
 * @param handledCount how many times the handler ran for the event: 1, however often the shop
 * delivered it
 * @param firstHandledAt when the handler first ran
 */
public record ProcessedShopEvent(String eventId, String topic, long handledCount, Instant firstHandledAt) {

}
