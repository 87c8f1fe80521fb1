package io.github.idempotency.web.reactive;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import io.github.idempotency.TenantResolver;
import io.github.idempotency.engine.IdempotencyAutoConfiguration;
import io.github.idempotency.engine.IdempotencyProperties;
import io.github.idempotency.web.TenantHeader;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the tenant of a reactive request: the
 * signed-in principal, else the tenant header, else the default tenant.
 */
@AutoConfiguration(before = IdempotencyAutoConfiguration.class,
		beforeName = "io.github.idempotency.web.servlet.IdempotencyServletTenantAutoConfiguration")
@ConditionalOnBooleanProperty(name = "idempotency.enabled", matchIfMissing = true)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@EnableConfigurationProperties(IdempotencyProperties.class)
public final class IdempotencyReactiveTenantAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(TenantResolver.class)
	ReactiveTenantResolver idempotencyTenantResolver(IdempotencyProperties properties) {
		IdempotencyProperties.Tenant tenant = properties.getTenant();
		return new ReactiveTenantResolver(new TenantHeader(tenant.getHeader(), tenant.getDefaultTenant()));
	}

}
