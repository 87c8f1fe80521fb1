package io.github.idempotency.web.servlet;

import io.github.idempotency.web.IdempotencyWebProperties;
import io.github.idempotency.web.OperationStatusResponses;
import io.github.idempotency.web.StoredHeaderPolicy;
import io.github.idempotency.web.HttpProblems;
import io.github.idempotency.engine.IdempotencyAutoConfiguration;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import io.github.idempotency.IdempotencyProblemCustomizer;
import io.github.idempotency.OutcomeClassifier;

import io.github.idempotency.engine.IdempotentInvocation;
import io.github.idempotency.engine.IdempotentAttributeSource;
import io.github.idempotency.engine.KeyExpressionEvaluator;
import io.github.idempotency.engine.OperationPolicies;
import io.github.idempotency.TenantResolver;
import io.github.idempotency.engine.IdempotencyProperties;
import io.github.idempotency.store.IdempotencyStore;
import org.springframework.context.annotation.Conditional;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the HTTP contract for {@code @Idempotent}
 * Spring MVC handler methods: key header, replays, problems and response capture, and their
 * springdoc-openapi documentation where springdoc is present.
 */
@AutoConfiguration(after = IdempotencyAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnBean(IdempotentInvocation.class)
@EnableConfigurationProperties(IdempotencyWebProperties.class)
public final class IdempotencyWebMvcAutoConfiguration {

	/**
	 * Order of the filter: last, so that no other filter sits between it and the handler. What
	 * the handler writes is captured and stored as it is, and a replay leaves through the same
	 * filters (security, logging, compression) as the first answer did.
	 */
	public static final int FILTER_ORDER = Ordered.LOWEST_PRECEDENCE;

	@Bean
	StoredHeaderPolicy idempotencyStoredHeaderPolicy(IdempotencyWebProperties properties) {
		return new StoredHeaderPolicy(properties.getStoredHeaders());
	}

	@Bean
	HttpProblems idempotencyHttpProblems(IdempotencyWebProperties properties,
			ObjectProvider<IdempotencyProblemCustomizer> customizers) {
		return HttpProblems.of(properties, customizers.orderedStream().toList());
	}

	@Bean
	WebIdempotencyHandler webIdempotencyHandler(IdempotentInvocation invocation, KeyExpressionEvaluator keyEvaluator,
			IdempotencyWebProperties properties, HttpProblems problems, AcceptedWorkers workers,
			OperationStatusResponses statuses) {
		return new WebIdempotencyHandler(invocation, keyEvaluator, properties.getKeyHeader(), problems, workers,
				statuses);
	}

	@Bean
	AcceptedWorkers idempotencyAcceptedWorkers(IdempotencyWebProperties properties) {
		return new AcceptedWorkers(properties.getAccepted());
	}

	@Bean
	OperationStatusResponses idempotencyOperationStatusResponses(IdempotencyWebProperties properties) {
		return new OperationStatusResponses(properties.getAccepted());
	}

	@Bean
	AcceptedOperationsCheck idempotencyAcceptedOperationsCheck(HandlerMethodOperationNames names,
			OperationPolicies policies) {
		return new AcceptedOperationsCheck(names, policies);
	}

	@Bean
	WebExecutionFinisher webExecutionFinisher(OutcomeClassifier classifier, StoredHeaderPolicy headerPolicy,
			HttpProblems problems, ObjectProvider<RequestMappingHandlerAdapter> handlerAdapters,
			ObjectProvider<HandlerExceptionResolver> exceptionResolvers) {
		return new WebExecutionFinisher(classifier, headerPolicy, problems,
				new LateResultRenderer(handlerAdapters, exceptionResolvers));
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
	IdempotencyHandlerInterceptor idempotencyHandlerInterceptor(IdempotentAttributeSource attributeSource,
			WebExecutionFinisher finisher, IdempotencyWebProperties properties, HttpProblems problems) {
		return new IdempotencyHandlerInterceptor(attributeSource, finisher, properties.getMaxBodySize().toBytes(),
				problems);
	}

	@Bean
	HandlerMethodOperationNames idempotencyHandlerMethodOperationNames(
			ObjectProvider<RequestMappingHandlerMapping> handlerMappings, IdempotentAttributeSource attributeSource) {
		return new HandlerMethodOperationNames(handlerMappings, attributeSource);
	}

	@Bean
	IdempotencyExceptionResolver idempotencyExceptionResolver() {
		return new IdempotencyExceptionResolver();
	}

	@Bean
	IdempotencyProblemAdvice idempotencyProblemAdvice(HttpProblems problems) {
		return new IdempotencyProblemAdvice(problems);
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

	@Configuration(proxyBeanMethods = false)
	@Conditional(OperationStatusResponses.OnAcceptedOperations.class)
	static class OperationStatusConfiguration {

		@Bean
		RouterFunction<ServerResponse> idempotencyOperationStatusRoutes(IdempotencyStore store,
				TenantResolver tenantResolver, IdempotencyProperties properties, OperationStatusResponses responses,
				HttpProblems problems) {
			return new OperationStatusEndpoint(store, tenantResolver, properties, responses, problems).routes();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springdoc.core.customizers.OperationCustomizer")
	static class OpenApiConfiguration {

		@Bean
		IdempotencyOperationCustomizer idempotencyOperationCustomizer(IdempotentAttributeSource attributeSource,
				IdempotencyWebProperties properties, HandlerMethodOperationNames names,
				IdempotencyProperties idempotency) {
			return new IdempotencyOperationCustomizer(attributeSource, properties.getKeyHeader(),
					(handler) -> names.operationNamesOf(handler).stream().anyMatch((name) -> {
						IdempotencyProperties.Operation settings = idempotency.getOperations().get(name);
						return settings != null && settings.getAcceptAfter() != null;
					}));
		}

	}

}
