package io.github.idempotency.actuate;


import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.idempotency.store.IdempotencyRecordAdministration;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the Actuator surface of the store: the
 * {@code idempotency} endpoint (counts, look-up and release of a stuck key), the operator
 * dashboard page when it is enabled, and the health contribution (the store is reachable, and how
 * many records are stuck in progress).
 */
@AutoConfiguration(afterName = { "io.github.idempotency.jdbc.IdempotencyJdbcAutoConfiguration",
		"io.github.idempotency.redis.IdempotencyRedisAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "idempotency.enabled", matchIfMissing = true)
@ConditionalOnBean(IdempotencyRecordAdministration.class)
public final class IdempotencyActuatorAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
	@ConditionalOnAvailableEndpoint(IdempotencyEndpoint.class)
	static class EndpointConfiguration {

		@Bean
		IdempotencyEndpoint idempotencyEndpoint(IdempotencyRecordAdministration administration,
				ObjectProvider<IdempotencyActivity> activity) {
			return new IdempotencyEndpoint(administration, activity.getIfAvailable());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ WebEndpoint.class, ConditionalOnAvailableEndpoint.class })
	@ConditionalOnBooleanProperty("idempotency.dashboard.enabled")
	@ConditionalOnAvailableEndpoint(IdempotencyDashboardEndpoint.class)
	static class DashboardConfiguration {

		@Bean
		IdempotencyDashboardEndpoint idempotencyDashboardEndpoint() {
			return new IdempotencyDashboardEndpoint();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
	@ConditionalOnEnabledHealthIndicator("idempotency")
	static class HealthConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "idempotencyHealthIndicator")
		IdempotencyStoreHealthIndicator idempotencyHealthIndicator(IdempotencyRecordAdministration administration) {
			return new IdempotencyStoreHealthIndicator(administration);
		}

	}

}
