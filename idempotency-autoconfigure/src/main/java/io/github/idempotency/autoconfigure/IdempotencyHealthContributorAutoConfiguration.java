package io.github.idempotency.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

import io.github.idempotency.actuator.IdempotencyStoreHealthIndicator;
import io.github.idempotency.store.IdempotencyRecordAdministration;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the {@code idempotency} health
 * contribution: the store is reachable, and how many records are stuck in progress.
 */
@AutoConfiguration(after = IdempotencyJdbcAdministrationAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "idempotency.enabled", matchIfMissing = true)
@ConditionalOnClass({ HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnEnabledHealthIndicator("idempotency")
@ConditionalOnBean(IdempotencyRecordAdministration.class)
public final class IdempotencyHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "idempotencyHealthIndicator")
	IdempotencyStoreHealthIndicator idempotencyHealthIndicator(IdempotencyRecordAdministration administration) {
		return new IdempotencyStoreHealthIndicator(administration);
	}

}
