package io.github.idempotency.autoconfigure;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.github.idempotency.actuator.IdempotencyEndpoint;
import io.github.idempotency.store.IdempotencyRecordAdministration;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the {@code idempotency} Actuator endpoint.
 */
@AutoConfiguration(after = IdempotencyJdbcAdministrationAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "idempotency.enabled", matchIfMissing = true)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnAvailableEndpoint(IdempotencyEndpoint.class)
@ConditionalOnBean(IdempotencyRecordAdministration.class)
public final class IdempotencyEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	IdempotencyEndpoint idempotencyEndpoint(IdempotencyRecordAdministration administration) {
		return new IdempotencyEndpoint(administration);
	}

}
