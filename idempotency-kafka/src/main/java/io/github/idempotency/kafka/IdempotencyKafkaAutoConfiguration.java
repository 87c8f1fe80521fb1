package io.github.idempotency.kafka;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.DefaultErrorHandler;

import io.github.idempotency.OutcomeClassifier;
import io.github.idempotency.engine.IdempotencyAutoConfiguration;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of {@code @Idempotent} Kafka listeners: the
 * key and payload of their records, and their outcomes through the containers' error handler.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = IdempotencyAutoConfiguration.class,
		beforeName = "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration")
@ConditionalOnClass({ ConsumerRecord.class, DefaultErrorHandler.class })
@ConditionalOnBooleanProperty(name = "idempotency.enabled", matchIfMissing = true)
public final class IdempotencyKafkaAutoConfiguration {

	@Bean
	KafkaMessageArguments idempotencyKafkaMessageArguments() {
		return new KafkaMessageArguments();
	}

	/**
	 * The error handler the containers have when the application names none: Spring Kafka's
	 * default, which the post-processor below then adapts.
	 */
	@Bean
	@ConditionalOnMissingBean(CommonErrorHandler.class)
	DefaultErrorHandler idempotencyKafkaErrorHandler() {
		return new DefaultErrorHandler();
	}

	@Bean
	static KafkaListenerKeysCheck idempotencyKafkaListenerKeysCheck(ConfigurableListableBeanFactory beanFactory) {
		return new KafkaListenerKeysCheck(beanFactory);
	}

	@Bean
	static IdempotentErrorHandlerPostProcessor idempotentKafkaErrorHandlerPostProcessor(
			ObjectProvider<OutcomeClassifier> classifier) {
		return new IdempotentErrorHandlerPostProcessor(classifier);
	}

}
