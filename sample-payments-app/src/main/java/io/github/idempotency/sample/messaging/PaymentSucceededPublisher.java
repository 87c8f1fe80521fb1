package io.github.idempotency.sample.messaging;

import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.context.annotation.Profile;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import io.github.idempotency.sample.payments.PaymentSucceeded;

/**
 * Publishes {@code payment.succeeded} to RabbitMQ for every succeeded payment, in the
 * {@code rabbit} profile. It runs in the payment request, so a payment whose event cannot be
 * published fails with a 5xx, releases its key and publishes again on the client's retry: the
 * event is delivered at least once, and the ledger makes that once in effect.
 */
@Component
@Profile("rabbit")
class PaymentSucceededPublisher {

	private final RabbitTemplate rabbit;

	private final MessagingProperties properties;

	PaymentSucceededPublisher(RabbitTemplate rabbit, MessagingProperties properties) {
		this.rabbit = rabbit;
		this.properties = properties;
	}

	@EventListener
	void publish(PaymentSucceeded event) {
		this.rabbit.convertAndSend(this.properties.exchange(), this.properties.routingKey(), event, (message) -> {
			message.getMessageProperties().setMessageId("payment-succeeded:" + event.paymentId());
			return message;
		});
	}

}
