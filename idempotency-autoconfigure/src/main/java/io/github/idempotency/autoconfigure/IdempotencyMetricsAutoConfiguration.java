package io.github.idempotency.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import io.github.idempotency.aop.IdempotentAttributeSource;
import io.github.idempotency.core.IdempotencyEngine;
import io.github.idempotency.metrics.BeanMethodOperationNames;
import io.github.idempotency.metrics.HandlerMethodOperationNames;
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

	@Bean
	@ConditionalOnMissingBean
	BeanMethodOperationNames idempotencyBeanMethodOperationNames(ConfigurableListableBeanFactory beanFactory,
			IdempotentAttributeSource attributeSource, ObjectProvider<HandlerMethodOperationNames> handlerMethods) {
		return new BeanMethodOperationNames(beanFactory, attributeSource, handlerMethods.getIfAvailable() != null);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnClass(RequestMappingHandlerMapping.class)
	static class HandlerMethodNamesConfiguration {

		@Bean
		@ConditionalOnMissingBean
		HandlerMethodOperationNames idempotencyHandlerMethodOperationNames(
				ObjectProvider<RequestMappingHandlerMapping> handlerMappings,
				IdempotentAttributeSource attributeSource) {
			return new HandlerMethodOperationNames(handlerMappings, attributeSource);
		}

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
