package io.github.idempotency.engine;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.engine.RabbitTransferApplication.Acknowledger;
import io.github.idempotency.engine.RabbitTransferApplication.Delivery;
import io.github.idempotency.engine.RabbitTransferApplication.Transfer;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A RabbitMQ listener whose {@code @RabbitListener} method is itself {@code @Idempotent} and takes
 * the channel, the delivery tag and the redelivered flag besides its payload, on the local broker
 * and real PostgreSQL: another delivery of its message, after a killed consumer too, is the same
 * request.
 */
@SpringBootTest(classes = RabbitTransferApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = "spring.flyway.locations=classpath:db/webtest")
class RabbitRedeliveryTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("rabbit");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		registry.add("spring.datasource.url", database::url);
		registry.add("spring.datasource.username", database::username);
		registry.add("spring.datasource.password", database::password);
	}

	@Autowired
	RabbitTemplate rabbit;

	@Autowired
	Acknowledger acknowledger;

	@Autowired
	JdbcTemplate jdbc;

	@Test
	void aListenerMethodThatIsIdempotentItselfRunsOnceHoweverOftenItsMessageIsPublished() {
		Transfer transfer = new Transfer(UUID.randomUUID().toString(), 1200);
		String messageId = "transfer:" + transfer.id();
		publish(transfer, messageId);
		publish(transfer, messageId);
		await().atMost(Duration.ofSeconds(30)).until(() -> this.acknowledger.deliveries(messageId).size() == 2);
		assertThat(this.acknowledger.deliveries(messageId)).extracting(Delivery::deliveryTag)
			.doesNotHaveDuplicates();
		assertThat(this.acknowledger.deliveries(messageId)).extracting(Delivery::outcome)
			.containsExactly("acked", "acked");
		assertThat(effects(transfer.id())).isOne();
		assertThat(status(transfer.id())).isEqualTo("COMPLETED");
	}

	@Test
	void aRedeliveryAfterTheConsumerWasKilledIsReplayedNotRefusedAsAnotherRequest() {
		Transfer transfer = new Transfer(UUID.randomUUID().toString(), 2500);
		String messageId = "transfer:" + transfer.id();
		this.acknowledger.killConsumerAfter(messageId);
		publish(transfer, messageId);
		await().atMost(Duration.ofSeconds(30)).until(() -> this.acknowledger.deliveries(messageId).size() == 2);
		assertThat(this.acknowledger.deliveries(messageId)).extracting(Delivery::redelivered)
			.containsExactly(false, true);
		assertThat(this.acknowledger.deliveries(messageId)).extracting(Delivery::outcome)
			.containsExactly("consumer-killed", "acked");
		assertThat(effects(transfer.id())).isOne();
		assertThat(status(transfer.id())).isEqualTo("COMPLETED");
	}

	private void publish(Transfer transfer, String messageId) {
		this.rabbit.convertAndSend(RabbitTransferApplication.QUEUE, transfer, (message) -> {
			message.getMessageProperties().setMessageId(messageId);
			return message;
		});
	}

	private long effects(String transferId) {
		return this.jdbc.queryForObject("SELECT count(*) FROM effect WHERE endpoint = 'transfer' AND detail = ?",
				Long.class, transferId);
	}

	private String status(String transferId) {
		return this.jdbc.queryForObject("SELECT status FROM idempotency_record WHERE idempotency_key LIKE ?",
				String.class, "%" + transferId);
	}

}
