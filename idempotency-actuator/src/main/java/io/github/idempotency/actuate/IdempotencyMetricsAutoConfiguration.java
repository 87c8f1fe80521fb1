package io.github.idempotency.actuate;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.idempotency.engine.IdempotencyAutoConfiguration;
import io.github.idempotency.engine.IdempotentInvocation;
import io.github.idempotency.engine.IdempotencyProperties;
import io.github.idempotency.engine.IdempotentOperationNames;
import io.github.idempotency.store.IdempotencyRecordAdministration;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the Micrometer meters of idempotent
 * operations and of the purge, registered up front for every configured and every annotated
 * operation, and of the gauges of what the store holds.
 */
@AutoConfiguration(after = { MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
		IdempotencyAutoConfiguration.class },
		afterName = { "io.github.idempotency.jdbc.IdempotencyJdbcAutoConfiguration",
				"io.github.idempotency.redis.IdempotencyRedisAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "idempotency.enabled", matchIfMissing = true)
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({ MeterRegistry.class, IdempotentInvocation.class })
public final class IdempotencyMetricsAutoConfiguration {

	@Bean
	IdempotencyMetrics idempotencyMetrics(MeterRegistry registry, IdempotencyProperties properties) {
		return new IdempotencyMetrics(registry, properties.getOperations().keySet(),
				properties.getAlerts().getRepeatedFailures());
	}

	@Bean
	IdempotencyMeterRegistrar idempotencyMeterRegistrar(IdempotencyMetrics metrics,
			ObjectProvider<IdempotentOperationNames> names) {
		return new IdempotencyMeterRegistrar(metrics, names);
	}

	@Bean
	@ConditionalOnMissingBean(IdempotencyActivity.class)
	MeterActivity idempotencyActivity(MeterRegistry registry) {
		return new MeterActivity(registry);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(IdempotencyRecordAdministration.class)
	static class RecordMetricsConfiguration {

		@Bean
		IdempotencyRecordMetrics idempotencyRecordMetrics(MeterRegistry registry,
				IdempotencyRecordAdministration administration, IdempotencyProperties properties) {
			return new IdempotencyRecordMetrics(registry, administration,
					properties.getMetrics().getRecordsRefresh());
		}

	}

	/**
	 * The purge's meters, where the JDBC store's module is on the class path and purges.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "io.github.idempotency.jdbc.IdempotencyPurger")
	@ConditionalOnBean(type = "io.github.idempotency.jdbc.IdempotencyPurger")
	static class PurgeMetricsConfiguration {

		@Bean
		IdempotencyPurgeMetrics idempotencyPurgeMetrics(MeterRegistry registry) {
			return new IdempotencyPurgeMetrics(registry);
		}

	}

}
