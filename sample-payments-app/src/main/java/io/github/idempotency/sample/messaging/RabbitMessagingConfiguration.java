package io.github.idempotency.sample.messaging;

import org.springframework.amqp.core.Binding;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.QueueBuilder;
import org.springframework.amqp.core.TopicExchange;
import org.springframework.amqp.support.converter.JacksonJsonMessageConverter;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import tools.jackson.databind.json.JsonMapper;

/**
 * Declares the exchange, queue and binding of {@code payment.succeeded} events, sent as JSON;
 * only in the {@code rabbit} profile, so that the default profile needs no broker.
 */
@Configuration(proxyBeanMethods = false)
@Profile("rabbit")
class RabbitMessagingConfiguration {

	@Bean
	TopicExchange paymentsExchange(MessagingProperties properties) {
		return new TopicExchange(properties.exchange());
	}

	@Bean
	Queue ledgerQueue(MessagingProperties properties) {
		return QueueBuilder.durable(properties.ledgerQueue()).build();
	}

	@Bean
	Binding ledgerBinding(Queue ledgerQueue, TopicExchange paymentsExchange, MessagingProperties properties) {
		return BindingBuilder.bind(ledgerQueue).to(paymentsExchange).with(properties.routingKey());
	}

	@Bean
	JacksonJsonMessageConverter jsonMessageConverter(JsonMapper json) {
		return new JacksonJsonMessageConverter(json);
	}

}
