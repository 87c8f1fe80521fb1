package io.github.idempotency.sample.fulfilment;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.idempotency.sample.SamplePaymentsApplication;
import io.github.idempotency.sample.support.PostgresDatasource;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample's fulfilment in its {@code kafka} profile, on Spring Kafka's embedded KRaft broker
 * and PostgreSQL: an order event its producer sent three times ships once and is confirmed three
 * times alike; an event that can never ship goes to the dead-letter topic, never retried.
 */
@SpringBootTest(classes = { SamplePaymentsApplication.class, KafkaFulfilmentTests.Topics.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "spring.kafka.listener.poll-timeout=100ms")
// The embedded broker stops with the context, rather than run on beside the tests after these.
@DirtiesContext
@ActiveProfiles("kafka")
@EmbeddedKafka(brokerProperties = "offsets.topic.num.partitions=1")
class KafkaFulfilmentTests {

	private static final PostgresTestDatabase database = PostgresTestDatabase.create("fulfilment");

	private static final JsonMapper json = new JsonMapper();

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		PostgresDatasource.register(registry, database);
	}

	@LocalServerPort
	int port;

	@Autowired
	Topics topics;

	@Autowired
	JdbcTemplate jdbc;

	@Test
	void anOrderEventSentThreeTimesShipsOnceAndEveryCopyGetsTheSameConfirmation() {
		String orderId = "o-" + UUID.randomUUID();
		HttpResponse<byte[]> published = publish(orderId, 2, 3);
		assertThat(published.statusCode()).isEqualTo(202);
		assertThat(json.readTree(published.body())).hasSize(3);
		await().atMost(Duration.ofSeconds(30)).until(() -> this.topics.confirmations(orderId).size() == 3);
		JsonNode shipments = json.readTree(new Http(this.port).get("/shipments?orderId=" + orderId).send().body());
		assertThat(shipments).hasSize(1);
		assertThat(this.topics.confirmations(orderId)).containsOnly(this.topics.confirmations(orderId).get(0))
			.allSatisfy((confirmation) -> assertThat(confirmation)
				.contains(shipments.get(0).get("trackingNumber").asString()));
	}

	@Test
	void anOrderEventThatCanNeverShipGoesToTheDeadLetterTopicWithoutRetries() {
		String orderId = "o-" + UUID.randomUUID();
		publish(orderId, 0, 2);
		await().atMost(Duration.ofSeconds(30)).until(() -> this.topics.deadLetters(orderId).size() == 2);
		JsonNode shipments = json.readTree(new Http(this.port).get("/shipments?orderId=" + orderId).send().body());
		assertThat(shipments).isEmpty();
		assertThat(this.jdbc.queryForObject(
				"SELECT status FROM idempotency_record WHERE operation = ? AND idempotency_key = ?", String.class,
				OrderEventsListener.OPERATION, "order-placed:" + orderId))
			.as("the failure, stored")
			.isEqualTo("COMPLETED");
	}

	private HttpResponse<byte[]> publish(String orderId, int items, int copies) {
		return new Http(this.port).post("/order-events?copies=" + copies)
			.json("{\"orderId\":\"" + orderId + "\",\"customerId\":\"c-1\",\"items\":" + items + "}")
			.send();
	}

	/**
	 * Reads the confirmation and dead-letter topics as text.
	 */
	static class Topics {

		private final List<String> confirmations = new CopyOnWriteArrayList<>();

		private final List<String> deadLetters = new CopyOnWriteArrayList<>();

		@KafkaListener(id = "test-confirmations", topics = FulfilmentTopics.CONFIRMATIONS,
				properties = "value.deserializer=org.apache.kafka.common.serialization.StringDeserializer")
		void onConfirmation(ConsumerRecord<String, String> record) {
			this.confirmations.add(record.value());
		}

		@KafkaListener(id = "test-dead-letters", topics = FulfilmentTopics.DEAD_LETTERS,
				properties = "value.deserializer=org.apache.kafka.common.serialization.StringDeserializer")
		void onDeadLetter(ConsumerRecord<String, String> record) {
			this.deadLetters.add(record.value());
		}

		List<String> confirmations(String orderId) {
			return this.confirmations.stream().filter((value) -> value.contains(orderId)).toList();
		}

		List<String> deadLetters(String orderId) {
			return this.deadLetters.stream().filter((value) -> value.contains(orderId)).toList();
		}

	}

}
