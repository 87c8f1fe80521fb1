package io.github.idempotency.sample.webhooks;

import java.time.Instant;

/**
 * The answer to a shop webhook once its event was handled; a redelivery gets the same bytes.
 *
 * @param eventId the shop's event id
 * @param topic the event's topic, such as {@code orders/paid}, or {@code null}
 * @param payloadSha256 the hex SHA-256 of the body that was handled
 * @param handledAt when the handler ran
 */
public record ShopWebhookReceipt(String eventId, String topic, String payloadSha256, Instant handledAt) {

}
