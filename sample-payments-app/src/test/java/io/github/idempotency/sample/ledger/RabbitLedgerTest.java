package io.github.idempotency.sample.ledger;

import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.sample.SamplePaymentsApplication;
import io.github.idempotency.sample.messaging.MessagingProperties;
import io.github.idempotency.sample.payments.PaymentSucceeded;
import io.github.idempotency.sample.support.FlowsDatabase;
import io.github.idempotency.sample.support.PostgresDatasource;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

/**
 * The base of the ledger and RabbitMQ outbox tests: the application in its {@code rabbit} profile on
 * PostgreSQL and the local RabbitMQ broker, with exchanges and queues of its own for this test run, two
 * consumers that take one message at a time, and probes on the deliveries and the engine.
 */
@SpringBootTest(classes = { SamplePaymentsApplication.class, DeliveryProbe.class, ExecutionGate.class,
		BrokerCleanup.class }, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.rabbitmq.host=127.0.0.1", "spring.rabbitmq.listener.simple.concurrency=2",
				"spring.rabbitmq.listener.simple.prefetch=1" })
@ActiveProfiles("rabbit")
abstract class RabbitLedgerTest {

	private static final PostgresTestDatabase database = PostgresTestDatabase.create("ledger");

	private static final String RUN = UUID.randomUUID().toString();

	@DynamicPropertySource
	static void databaseAndBroker(DynamicPropertyRegistry registry) {
		PostgresDatasource.register(registry, database);
		registry.add("sample.rabbit.exchange", () -> "payments.test." + RUN);
		registry.add("sample.rabbit.ledger-queue", () -> "ledger.test." + RUN);
		registry.add("sample.rabbit.order-exchange", () -> "order-events.test." + RUN);
		registry.add("sample.rabbit.shipment-queue", () -> "fulfilment.test." + RUN);
	}

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	RabbitTemplate rabbit;

	@Autowired
	AmqpAdmin admin;

	@Autowired
	MessagingProperties names;

	@Autowired
	DeliveryProbe probe;

	@Autowired
	ExecutionGate gate;

	Http http;

	FlowsDatabase db;

	@BeforeEach
	void startEmpty() {
		this.http = new Http(this.port);
		this.db = new FlowsDatabase(this.jdbc);
		this.db.clear();
		this.probe.reset();
		this.gate.reset();
	}

	@AfterEach
	void releaseHeldExecutions() {
		this.gate.release();
	}

	/**
	 * Publish an event as the payments flow does.
	 * @param event the event
	 * @param messageId the message id, the same for every publication of one event
	 */
	void publish(PaymentSucceeded event, String messageId) {
		this.rabbit.convertAndSend(this.names.exchange(), this.names.routingKey(), event, (message) -> {
			message.getMessageProperties().setMessageId(messageId);
			return message;
		});
	}

	/**
	 * Return how many messages wait in the ledger queue.
	 * @return the ready messages
	 */
	long messagesInQueue() {
		return this.admin.getQueueInfo(this.names.ledgerQueue()).getMessageCount();
	}

	static PaymentSucceeded event(long paymentId, long amount) {
		return new PaymentSucceeded(paymentId, "default", "cust-" + paymentId, amount, "EUR", "ch_" + paymentId);
	}

	static long newPaymentId() {
		return Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000_000L) + 1;
	}

}
