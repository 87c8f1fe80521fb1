package io.github.idempotency.sample.messaging;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Names of the RabbitMQ exchanges, routing key and queues of the {@code rabbit} profile.
 *
 * @param exchange the topic exchange payment events are published to
 * @param routingKey the routing key of {@code payment.succeeded} events
 * @param ledgerQueue the queue the ledger consumes {@code payment.succeeded} events from
 * @param orderExchange the topic exchange the outbox sends {@code OrderPlaced} events to, routed by
 * order id
 * @param shipmentQueue the queue fulfilment ships orders from, bound to every order event
 */
@ConfigurationProperties("sample.rabbit")
public record MessagingProperties(@DefaultValue("payments") String exchange,
		@DefaultValue("payment.succeeded") String routingKey,
		@DefaultValue("ledger.payment-succeeded") String ledgerQueue, @DefaultValue("order-events") String orderExchange,
		@DefaultValue("fulfilment.order-events") String shipmentQueue) {

}
