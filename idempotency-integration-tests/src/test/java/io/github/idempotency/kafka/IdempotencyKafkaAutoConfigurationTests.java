package io.github.idempotency.kafka;

import java.time.Duration;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.FixedBackOff;

import io.github.idempotency.IdempotencyKeyInProgressException;
import io.github.idempotency.IdempotentOperationFailedException;
import io.github.idempotency.engine.IdempotencyAutoConfiguration;
import io.github.idempotency.engine.MessageArguments;
import io.github.idempotency.jdbc.IdempotencyJdbcAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link IdempotencyKafkaAutoConfiguration}: the record arguments, and the back-off every error
 * handler bean of the Kafka containers gets for the outcomes of {@code @Idempotent} listeners.
 */
class IdempotencyKafkaAutoConfigurationTests {

	private static final ConsumerRecord<String, String> RECORD = new ConsumerRecord<>("orders", 0, 0, "k", "v");

	private static final BackOff OWN = new FixedBackOff(7, 7);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				IdempotencyJdbcAutoConfiguration.class, IdempotencyAutoConfiguration.class,
				IdempotencyKafkaAutoConfiguration.class))
		.withPropertyValues("idempotency.purge.cron=-");

	@Test
	void anApplicationWithoutAnErrorHandlerGetsSpringKafkasDefaultWithTheRulesOfIdempotentListeners() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(MessageArguments.class);
			DefaultErrorHandler handler = context.getBean("idempotencyKafkaErrorHandler", DefaultErrorHandler.class);
			assertThat(IdempotentRecordBackOff.configuredOn(handler)).isInstanceOf(IdempotentRecordBackOff.class);
		});
	}

	@Test
	void theApplicationsErrorHandlerIsKeptWithItsOwnBackOffForFailuresOtherThanThoseOfIdempotentListeners() {
		this.runner.withUserConfiguration(OwnErrorHandler.class).run((context) -> {
			assertThat(context).hasSingleBean(CommonErrorHandler.class).doesNotHaveBean("idempotencyKafkaErrorHandler");
			var backOff = IdempotentRecordBackOff.configuredOn(context.getBean(DefaultErrorHandler.class));
			assertThat(backOff.apply(RECORD, new IllegalStateException("transient"))).isSameAs(OWN);
			assertThat(attempts(backOff.apply(RECORD, new IdempotentOperationFailedException("x", "final"))))
				.isZero();
			assertThat(attempts(backOff.apply(RECORD,
					new RuntimeException(new IdempotencyKeyInProgressException(Duration.ofSeconds(1))))))
				.isGreaterThan(100);
		});
	}

	@Test
	void anApplicationWithoutSpringKafkaGetsNoneOfIt() {
		this.runner.withClassLoader(new FilteredClassLoader(DefaultErrorHandler.class)).run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(MessageArguments.class);
		});
	}

	/**
	 * Return how many retries a back-off allows, counting up to a thousand.
	 */
	private static int attempts(BackOff backOff) {
		BackOffExecution execution = backOff.start();
		int attempts = 0;
		while (attempts < 1000 && execution.nextBackOff() != BackOffExecution.STOP) {
			attempts++;
		}
		return attempts;
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnErrorHandler {

		@Bean
		DefaultErrorHandler ownErrorHandler() {
			DefaultErrorHandler handler = new DefaultErrorHandler();
			handler.setBackOffFunction((record, failure) -> OWN);
			return handler;
		}

	}

}
