package io.github.idempotency.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import io.github.idempotency.aop.IdempotentAttributeSource;
import io.github.idempotency.aop.KeyExpressionEvaluator;
import io.github.idempotency.core.IdempotencyEngine;
import io.github.idempotency.core.OperationPolicies;
import io.github.idempotency.core.OutcomeClassifier;
import io.github.idempotency.core.RequestFingerprinter;
import io.github.idempotency.core.TenantResolver;
import io.github.idempotency.metrics.HandlerMethodOperationNames;
import io.github.idempotency.web.IdempotencyExceptionResolver;
import io.github.idempotency.web.IdempotencyFilter;
import io.github.idempotency.web.IdempotencyHandlerInterceptor;
import io.github.idempotency.web.StoredHeaderPolicy;
import io.github.idempotency.web.WebExecutionFinisher;
import io.github.idempotency.web.WebIdempotencyHandler;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the HTTP contract for {@code @Idempotent}
 * Spring MVC handler methods: key header, replays, problems and response capture.
 */
@AutoConfiguration(after = IdempotencyAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnBean(IdempotencyEngine.class)
public final class IdempotencyWebMvcAutoConfiguration {

	/**
	 * Order of the filter: last, so that no other filter sits between it and the handler. What
	 * the handler writes is captured and stored as it is, and a replay leaves through the same
	 * filters (security, logging, compression) as the first answer did.
	 */
	public static final int FILTER_ORDER = Ordered.LOWEST_PRECEDENCE;

	@Bean
	@ConditionalOnMissingBean
	StoredHeaderPolicy idempotencyStoredHeaderPolicy(IdempotencyProperties properties) {
		return new StoredHeaderPolicy(properties.getStoredHeaders());
	}

	@Bean
	@ConditionalOnMissingBean
	WebIdempotencyHandler webIdempotencyHandler(IdempotencyEngine engine, OperationPolicies policies,
			TenantResolver tenantResolver, RequestFingerprinter fingerprinter, KeyExpressionEvaluator keyEvaluator,
			IdempotencyProperties properties) {
		return new WebIdempotencyHandler(engine, policies, tenantResolver, fingerprinter, keyEvaluator,
				properties.getKeyHeader());
	}

	@Bean
	@ConditionalOnMissingBean
	WebExecutionFinisher webExecutionFinisher(OutcomeClassifier classifier, StoredHeaderPolicy headerPolicy) {
		return new WebExecutionFinisher(classifier, headerPolicy);
	}

	@Bean
	@ConditionalOnMissingBean(name = "idempotencyFilter")
	FilterRegistrationBean<IdempotencyFilter> idempotencyFilter(WebExecutionFinisher finisher) {
		FilterRegistrationBean<IdempotencyFilter> registration = new FilterRegistrationBean<>(
				new IdempotencyFilter(finisher));
		registration.setOrder(FILTER_ORDER);
		return registration;
	}

	@Bean
	@ConditionalOnMissingBean
	IdempotencyHandlerInterceptor idempotencyHandlerInterceptor(IdempotentAttributeSource attributeSource,
			WebExecutionFinisher finisher, IdempotencyProperties properties) {
		return new IdempotencyHandlerInterceptor(attributeSource, finisher, properties.getMaxBodySize().toBytes());
	}

	@Bean
	@ConditionalOnMissingBean
	HandlerMethodOperationNames idempotencyHandlerMethodOperationNames(
			ObjectProvider<RequestMappingHandlerMapping> handlerMappings, IdempotentAttributeSource attributeSource) {
		return new HandlerMethodOperationNames(handlerMappings, attributeSource);
	}

	@Bean
	@ConditionalOnMissingBean
	IdempotencyExceptionResolver idempotencyExceptionResolver() {
		return new IdempotencyExceptionResolver();
	}

	@Bean
	WebMvcConfigurer idempotencyWebMvcConfigurer(IdempotencyHandlerInterceptor interceptor) {
		return new WebMvcConfigurer() {

			@Override
			public void addInterceptors(InterceptorRegistry registry) {
				registry.addInterceptor(interceptor).order(Ordered.LOWEST_PRECEDENCE);
			}

		};
	}

}
