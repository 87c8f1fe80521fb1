package io.github.idempotency.docs.snippets.kafka;

import org.springframework.context.annotation.Bean;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.FixedBackOff;

/**
 * The error handler of the Kafka containers, with a dead-letter topic. Not a configuration here:
 * there is no broker to publish to.
 */
class KafkaErrorHandling {

	// tag::error-handler[]
	@Bean
	DefaultErrorHandler kafkaErrorHandler(KafkaTemplate<Object, Object> template) {
		return new DefaultErrorHandler(new DeadLetterPublishingRecoverer(template), new FixedBackOff(1_000, 3));
	}
	// end::error-handler[]

}
