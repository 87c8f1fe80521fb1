package io.github.idempotency.web.servlet;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.util.ClassUtils;

import io.github.idempotency.TenantResolver;
import io.github.idempotency.engine.IdempotencyAutoConfiguration;
import io.github.idempotency.engine.IdempotencyProperties;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the tenant of a call made while a Servlet
 * request is handled: the signed-in principal, else the tenant header, else the default tenant.
 */
@AutoConfiguration(before = IdempotencyAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "idempotency.enabled", matchIfMissing = true)
@EnableConfigurationProperties(IdempotencyProperties.class)
@ConditionalOnClass(name = { "jakarta.servlet.http.HttpServletRequest",
		"org.springframework.web.context.request.RequestContextHolder" })
public final class IdempotencyServletTenantAutoConfiguration {

	private static final String SECURITY_CONTEXT_HOLDER = "org.springframework.security.core.context.SecurityContextHolder";

	@Bean
	@ConditionalOnMissingBean(TenantResolver.class)
	DefaultTenantResolver idempotencyTenantResolver(IdempotencyProperties properties) {
		IdempotencyProperties.Tenant tenant = properties.getTenant();
		return new DefaultTenantResolver(
				ClassUtils.isPresent(SECURITY_CONTEXT_HOLDER, getClass().getClassLoader()) ? new SecurityPrincipalName()
						: () -> null,
				tenant.getHeader(), tenant.getDefaultTenant());
	}

}
