package io.github.idempotency.web.reactive;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ResourceLoader;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;

import io.github.idempotency.IdempotencyProblemCustomizer;
import io.github.idempotency.OutcomeClassifier;
import io.github.idempotency.TenantResolver;
import io.github.idempotency.engine.IdempotencyAutoConfiguration;
import io.github.idempotency.engine.IdempotencyProperties;
import io.github.idempotency.engine.IdempotentAttributeSource;
import io.github.idempotency.engine.IdempotentInvocation;
import io.github.idempotency.engine.KeyExpressionEvaluator;
import io.github.idempotency.engine.OperationPolicies;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.web.HttpProblems;
import io.github.idempotency.web.IdempotencyWebProperties;
import io.github.idempotency.web.OperationStatusResponses;
import io.github.idempotency.web.StoredHeaderPolicy;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the HTTP contract for {@code @Idempotent}
 * Spring WebFlux handler methods and {@link IdempotentRoutes functional routes}: key header, replays,
 * problems and response capture, with the store called on bounded threads off the event loop.
 */
@AutoConfiguration(after = IdempotencyAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass(DispatcherHandler.class)
@ConditionalOnBean(IdempotentInvocation.class)
@EnableConfigurationProperties({ IdempotencyWebProperties.class, IdempotencyWebFluxProperties.class })
public final class IdempotencyWebFluxAutoConfiguration {

	@Bean(destroyMethod = "close")
	StoreScheduler idempotencyStoreScheduler(IdempotencyWebFluxProperties properties) {
		return new StoreScheduler(properties.getStoreThreads(), properties.getMaxPending());
	}

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
	ReactiveClaims idempotencyReactiveClaims(IdempotentInvocation invocation, HttpProblems problems,
			StoreScheduler store) {
		return new ReactiveClaims(invocation, problems, store);
	}

	@Bean
	ReactiveWebIdempotencyHandler reactiveWebIdempotencyHandler(ReactiveClaims claims,
			KeyExpressionEvaluator keyEvaluator, IdempotencyWebProperties properties, HttpProblems problems,
			OperationStatusResponses statuses) {
		return new ReactiveWebIdempotencyHandler(claims, keyEvaluator, properties.getKeyHeader(), problems, statuses);
	}

	@Bean
	OperationStatusResponses idempotencyOperationStatusResponses(IdempotencyWebProperties properties) {
		return new OperationStatusResponses(properties.getAccepted());
	}

	@Bean
	IdempotentRoutes idempotentRoutes(ReactiveClaims claims, ReactiveExecutionFinisher finisher,
			OperationPolicies policies, HttpProblems problems, IdempotencyWebProperties properties) {
		return new IdempotentRoutes(claims, finisher, policies, problems, properties.getKeyHeader(),
				maxBodySize(properties));
	}

	@Bean
	ReactiveExecutionFinisher reactiveExecutionFinisher(OutcomeClassifier classifier, StoredHeaderPolicy headerPolicy,
			HttpProblems problems, ReactiveClaims claims) {
		return new ReactiveExecutionFinisher(classifier, headerPolicy, problems, claims);
	}

	@Bean
	ReactiveIdempotencyFilter reactiveIdempotencyFilter(ObjectProvider<RequestMappingHandlerMapping> mappings,
			IdempotentAttributeSource attributeSource, ReactiveExecutionFinisher finisher, ReactiveClaims claims,
			IdempotencyWebProperties properties, IdempotencyProperties idempotency) {
		boolean anyAccepted = OperationStatusResponses.anyAccepts(idempotency.getOperations());
		return new ReactiveIdempotencyFilter(() -> mappings.orderedStream().toList(), attributeSource, finisher, claims,
				maxBodySize(properties),
				anyAccepted ? (operation) -> OperationStatusResponses.accepts(idempotency, operation) : null);
	}

	private static int maxBodySize(IdempotencyWebProperties properties) {
		return (int) Math.min(Integer.MAX_VALUE, properties.getMaxBodySize().toBytes());
	}

	@Bean
	ReactiveHandlerMethodOperationNames idempotencyReactiveHandlerMethodOperationNames(
			ObjectProvider<RequestMappingHandlerMapping> handlerMappings, IdempotentAttributeSource attributeSource) {
		return new ReactiveHandlerMethodOperationNames(handlerMappings, attributeSource);
	}

	@Bean
	WebFluxHandlersCheck idempotencyWebFluxHandlersCheck(ReactiveHandlerMethodOperationNames names,
			OperationPolicies policies) {
		return new WebFluxHandlersCheck(names, policies);
	}

	@Configuration(proxyBeanMethods = false)
	@Conditional(OperationStatusResponses.OnAcceptedOperations.class)
	static final class OperationStatusConfiguration {

		@Bean
		RouterFunction<ServerResponse> idempotencyOperationStatusRoutes(IdempotencyStore store,
				TenantResolver tenantResolver, IdempotencyProperties properties, OperationStatusResponses responses,
				HttpProblems problems, StoreScheduler threads) {
			return new ReactiveOperationStatusEndpoint(store, tenantResolver, properties, responses, problems, threads)
				.routes();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { "reactor.netty.http.server.HttpServer",
			"org.springframework.boot.web.server.reactive.context.ReactiveWebServerInitializedEvent" })
	static final class ReactorNettyConfiguration {

		@Bean
		ReactorNettyVersionCheck idempotencyReactorNettyVersionCheck(ResourceLoader resourceLoader) {
			return ReactorNettyVersionCheck.onClassPath(resourceLoader.getClassLoader());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "io.micrometer.context.ContextRegistry")
	static final class DiagnosticContextPropagation {

		@Bean
		static DiagnosticContextAccessor idempotencyDiagnosticContextAccessor() {
			return DiagnosticContextAccessor.register();
		}

	}

}
