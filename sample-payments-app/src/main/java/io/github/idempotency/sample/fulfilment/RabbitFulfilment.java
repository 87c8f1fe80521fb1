package io.github.idempotency.sample.fulfilment;

import org.springframework.amqp.core.Binding;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.QueueBuilder;
import org.springframework.amqp.core.TopicExchange;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

import io.github.idempotency.sample.messaging.MessagingProperties;

/**
 * The order exchange the outbox sends to in the {@code rabbit} profile, and the shipment queue
 * bound to all of it.
 */
@Configuration(proxyBeanMethods = false)
@Profile("rabbit")
class RabbitFulfilment {

	@Bean
	TopicExchange orderEventsExchange(MessagingProperties names) {
		return new TopicExchange(names.orderExchange());
	}

	@Bean
	Queue shipmentQueue(MessagingProperties names) {
		return QueueBuilder.durable(names.shipmentQueue()).build();
	}

	@Bean
	Binding shipmentBinding(Queue shipmentQueue, TopicExchange orderEventsExchange) {
		return BindingBuilder.bind(shipmentQueue).to(orderEventsExchange).with("#");
	}

}
