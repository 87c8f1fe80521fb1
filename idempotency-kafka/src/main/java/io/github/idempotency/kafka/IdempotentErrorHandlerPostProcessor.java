package io.github.idempotency.kafka;

import java.util.function.BiFunction;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.kafka.listener.FailedRecordProcessor;
import org.springframework.util.backoff.BackOff;

import io.github.idempotency.OutcomeClassifier;

/**
 * Gives every error handler bean of the Kafka containers (a {@code DefaultErrorHandler}, a
 * {@code DefaultAfterRollbackProcessor}) the {@link IdempotentRecordBackOff} in front of the
 * back-off function it already has.
 */
class IdempotentErrorHandlerPostProcessor implements BeanPostProcessor {

	private static final Logger logger = LoggerFactory.getLogger(IdempotentErrorHandlerPostProcessor.class);

	private final ObjectProvider<OutcomeClassifier> classifier;

	IdempotentErrorHandlerPostProcessor(ObjectProvider<OutcomeClassifier> classifier) {
		this.classifier = classifier;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof FailedRecordProcessor handler) {
			adapt(handler, beanName);
		}
		return bean;
	}

	private void adapt(FailedRecordProcessor handler, String beanName) {
		BiFunction<ConsumerRecord<?, ?>, Exception, @Nullable BackOff> configured;
		try {
			configured = IdempotentRecordBackOff.configuredOn(handler);
		}
		catch (RuntimeException ex) {
			configured = null;
		}
		if (configured == null) {
			logger.warn("Could not read the back-off function of the Kafka error handler '{}', so records of "
					+ "@Idempotent listeners get only its own back-off; see the Kafka page of the guide", beanName);
			return;
		}
		handler.setBackOffFunction(new IdempotentRecordBackOff(this.classifier.getObject(), configured));
	}

}
