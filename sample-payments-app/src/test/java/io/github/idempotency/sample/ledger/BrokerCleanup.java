package io.github.idempotency.sample.ledger;

import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.beans.factory.DisposableBean;

import io.github.idempotency.sample.messaging.MessagingProperties;

/**
 * Deletes the test run's queues and exchanges from the local broker when the context closes.
 */
public class BrokerCleanup implements DisposableBean {

	private final AmqpAdmin admin;

	private final MessagingProperties properties;

	public BrokerCleanup(AmqpAdmin admin, MessagingProperties properties) {
		this.admin = admin;
		this.properties = properties;
	}

	@Override
	public void destroy() {
		this.admin.deleteQueue(this.properties.ledgerQueue());
		this.admin.deleteExchange(this.properties.exchange());
		this.admin.deleteQueue(this.properties.shipmentQueue());
		this.admin.deleteExchange(this.properties.orderExchange());
	}

}
