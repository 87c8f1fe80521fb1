package io.github.idempotency.sample.fulfilment;

import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.FixedBackOff;

/**
 * The topics of the {@code kafka} profile, and the containers' error handler: a failed event is
 * retried three times a second apart, then goes to {@code order-events-dlt}. The starter adds what
 * {@code @Idempotent} listeners need: a duplicate of an event in progress is retried until the
 * first ends, a final failure goes to the dead-letter topic at once.
 */
@Configuration(proxyBeanMethods = false)
@Profile("kafka")
class FulfilmentTopics {

	static final String ORDER_EVENTS = "order-events";

	static final String CONFIRMATIONS = "shipment-confirmations";

	static final String DEAD_LETTERS = ORDER_EVENTS + "-dlt";

	@Bean
	NewTopic orderEvents() {
		return TopicBuilder.name(ORDER_EVENTS).partitions(3).replicas(1).build();
	}

	@Bean
	NewTopic shipmentConfirmations() {
		return TopicBuilder.name(CONFIRMATIONS).partitions(1).replicas(1).build();
	}

	@Bean
	NewTopic orderEventsDeadLetters() {
		return TopicBuilder.name(DEAD_LETTERS).partitions(3).replicas(1).build();
	}

	@Bean
	DefaultErrorHandler kafkaErrorHandler(KafkaTemplate<Object, Object> template) {
		return new DefaultErrorHandler(new DeadLetterPublishingRecoverer(template), new FixedBackOff(1_000, 3));
	}

}
