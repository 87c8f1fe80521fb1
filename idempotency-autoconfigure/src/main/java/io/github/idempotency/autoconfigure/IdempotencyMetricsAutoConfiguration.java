package io.github.idempotency.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.idempotency.core.IdempotencyEngine;
import io.github.idempotency.metrics.IdempotencyMeterRegistrar;
import io.github.idempotency.metrics.IdempotencyMetrics;
import io.github.idempotency.metrics.IdempotencyPurgeMetrics;
import io.github.idempotency.metrics.IdempotentOperationNames;
import io.github.idempotency.purge.IdempotencyPurger;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the Micrometer meters of idempotent
 * operations and of the purge, registered up front for every configured and every annotated
 * operation.
 */
@AutoConfiguration(after = { MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
		IdempotencyAutoConfiguration.class, IdempotencyJdbcAdministrationAutoConfiguration.class })
@ConditionalOnBooleanProperty(name = "idempotency.enabled", matchIfMissing = true)
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({ MeterRegistry.class, IdempotencyEngine.class })
public final class IdempotencyMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	IdempotencyMetrics idempotencyMetrics(MeterRegistry registry, IdempotencyProperties properties) {
		return new IdempotencyMetrics(registry, properties.getOperations().keySet());
	}

	@Bean
	@ConditionalOnMissingBean
	IdempotencyMeterRegistrar idempotencyMeterRegistrar(IdempotencyMetrics metrics,
			ObjectProvider<IdempotentOperationNames> names) {
		return new IdempotencyMeterRegistrar(metrics, names);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(IdempotencyPurger.class)
	static class PurgeMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		IdempotencyPurgeMetrics idempotencyPurgeMetrics(MeterRegistry registry) {
			return new IdempotencyPurgeMetrics(registry);
		}

	}

}
