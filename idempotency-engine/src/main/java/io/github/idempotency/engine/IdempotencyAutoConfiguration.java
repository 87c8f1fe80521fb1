package io.github.idempotency.engine;

import java.util.Map;
import java.util.Set;

import javax.sql.DataSource;

import io.micrometer.observation.ObservationRegistry;
import org.aopalliance.intercept.MethodInterceptor;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnNotWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.util.ClassUtils;
import tools.jackson.databind.json.JsonMapper;

import io.github.idempotency.IdempotencyListener;
import io.github.idempotency.OutcomeClassifier;
import io.github.idempotency.RequestFingerprinter;
import io.github.idempotency.TenantResolver;
import io.github.idempotency.fingerprint.Sha256RequestFingerprinter;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.TransactionalIdempotencyStore;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the idempotency engine and the advice
 * around {@code @Idempotent} methods.
 */
@AutoConfiguration(afterName = { "io.github.idempotency.jdbc.IdempotencyJdbcAutoConfiguration",
		"io.github.idempotency.redis.IdempotencyRedisAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "idempotency.enabled", matchIfMissing = true)
@EnableConfigurationProperties(IdempotencyProperties.class)
public final class IdempotencyAutoConfiguration {

	@Bean
	IdempotencyEngine idempotencyEngine(ObjectProvider<IdempotencyStore> store,
			ObjectProvider<IdempotencyListener> listeners, IdempotencyTransactions transactions,
			LeaseHeartbeat leaseHeartbeat, IdempotencyProperties properties, ResourceLoader resourceLoader) {
		IdempotencyProperties.Limits limits = properties.getLimits();
		KeySpaceGuard guard = (limits.getNewKeys() > 0 || limits.getInFlight() > 0)
				? new KeySpaceGuard(limits.getNewKeys(), limits.getInterval(), limits.getInFlight()) : null;
		return new IdempotencyEngine(requireStore(store),
				new CompositeIdempotencyListener(listeners.orderedStream().toList()), transactions, leaseHeartbeat,
				guard, cachedReplays(properties.getReplayCache(), resourceLoader.getClassLoader()));
	}

	private static @Nullable CachedReplays cachedReplays(IdempotencyProperties.ReplayCache settings,
			@Nullable ClassLoader classLoader) {
		if (!settings.isEnabled()) {
			return null;
		}
		if (!ClassUtils.isPresent("com.github.benmanes.caffeine.cache.Caffeine", classLoader)) {
			throw new ReplayCacheUnavailableException();
		}
		return new CachedReplays(settings.getMaxEntries(), settings.getMaxSize().toBytes(), settings.getMaxAge());
	}

	@Bean
	IdempotencyTransactions idempotencyTransactions(ObjectProvider<PlatformTransactionManager> transactionManager,
			ObjectProvider<IdempotencyStore> store, ObjectProvider<DataSource> dataSource) {
		boolean joins = requireStore(store) instanceof TransactionalIdempotencyStore transactional
				&& transactional.joinsApplicationTransactions();
		return new IdempotencyTransactions(transactionManager.getIfUnique(), joins ? dataSource.getIfUnique() : null);
	}

	@Bean(destroyMethod = "close")
	LeaseHeartbeat idempotencyLeaseHeartbeat(ObjectProvider<IdempotencyStore> store) {
		return new LeaseHeartbeat(requireStore(store));
	}

	@Bean
	BeanMethodOperationNames idempotencyBeanMethodOperationNames(ConfigurableListableBeanFactory beanFactory,
			IdempotentAttributeSource attributeSource, ObjectProvider<IdempotentOperationNames> names) {
		return new BeanMethodOperationNames(beanFactory, attributeSource,
				() -> names.stream().anyMatch(IdempotentOperationNames::namesControllers));
	}

	@Bean
	@ConditionalOnNotWebApplication
	static ReactiveHandlersCheck idempotencyReactiveMethodsCheck(ConfigurableListableBeanFactory beanFactory) {
		return new ReactiveHandlersCheck(beanFactory, () -> false);
	}

	@Bean
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	static ReactiveHandlersCheck idempotencyReactiveBeanMethodsCheck(ConfigurableListableBeanFactory beanFactory) {
		return new ReactiveHandlersCheck(beanFactory, () -> false);
	}

	@Bean
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	static ReactiveHandlersCheck idempotencyReactiveHandlersCheck(ConfigurableListableBeanFactory beanFactory,
			ObjectProvider<IdempotentOperationNames> names) {
		// With the WebFlux entry point, which names controllers, they are its own.
		return new ReactiveHandlersCheck(beanFactory,
				() -> names.stream().noneMatch(IdempotentOperationNames::namesControllers));
	}

	@Bean
	static OperationSettingsCheck idempotencyOperationSettingsCheck(Environment environment,
			ObjectProvider<IdempotentOperationNames> names) {
		return new OperationSettingsCheck(Binder.get(environment)
			.bind("idempotency.operations", Bindable.mapOf(String.class, IdempotencyProperties.Operation.class))
			.map(Map::keySet)
			.orElse(Set.of()), names);
	}

	@Bean
	static StoreCapabilityCheck idempotencyStoreCapabilityCheck(ObjectProvider<IdempotencyStore> store,
			ObjectProvider<IdempotentOperationNames> names, ObjectProvider<IdempotencyProperties> properties) {
		return new StoreCapabilityCheck(store, names, properties);
	}

	/**
	 * Return the store, which the starter cannot do without: an application with
	 * {@code @Idempotent} methods and no store must not start as if they were guarded.
	 */
	private static IdempotencyStore requireStore(ObjectProvider<IdempotencyStore> store) {
		IdempotencyStore available = store.getIfAvailable();
		if (available == null) {
			throw new NoIdempotencyStoreException();
		}
		return available;
	}

	@Bean
	MdcIdempotencyListener idempotencyMdcListener() {
		return new MdcIdempotencyListener();
	}

	@Bean
	@ConditionalOnMissingBean
	OperationPolicies idempotencyOperationPolicies(IdempotencyProperties properties) {
		return new PropertiesOperationPolicies(properties);
	}

	@Bean
	@ConditionalOnMissingBean(OutcomeClassifier.class)
	DefaultOutcomeClassifier idempotencyOutcomeClassifier(IdempotencyProperties properties) {
		IdempotencyProperties.Classification classification = properties.getClassification();
		return new DefaultOutcomeClassifier(classification.getTransientStatuses(),
				classification.getFinalExceptions(), classification.getTransientExceptions());
	}

	@Bean
	@ConditionalOnMissingBean(RequestFingerprinter.class)
	Sha256RequestFingerprinter idempotencyRequestFingerprinter() {
		return new Sha256RequestFingerprinter();
	}

	@Bean
	@ConditionalOnMissingBean
	IdempotentAttributeSource idempotentAttributeSource() {
		return new IdempotentAttributeSource();
	}

	@Bean
	@ConditionalOnMissingBean
	KeyExpressionEvaluator idempotencyKeyExpressionEvaluator(BeanFactory beanFactory) {
		return new KeyExpressionEvaluator(beanFactory);
	}

	@Bean
	IdempotentMethodInterceptor idempotentMethodInterceptor(IdempotentAttributeSource attributeSource,
			ObjectProvider<IdempotentInvocationHandler> handlers) {
		return new IdempotentMethodInterceptor(attributeSource, handlers.orderedStream().toList());
	}

	@Bean
	@ConditionalOnMissingBean
	IdempotentInvocation idempotentInvocation(IdempotencyEngine engine, OperationPolicies policies,
			TenantResolver tenantResolver, RequestFingerprinter fingerprinter,
			ObjectProvider<ObservationRegistry> observationRegistry) {
		return new IdempotentInvocation(engine, policies, tenantResolver, fingerprinter,
				observationRegistry.getIfUnique(() -> ObservationRegistry.NOOP));
	}

	@Bean
	MethodIdempotencyHandler methodIdempotencyHandler(IdempotentInvocation invocation,
			KeyExpressionEvaluator keyEvaluator, OutcomeClassifier classifier, ObjectProvider<JsonMapper> jsonMapper,
			ObjectProvider<MessageArguments> messageArguments) {
		return new MethodIdempotencyHandler(invocation, keyEvaluator, classifier,
				new ReturnValueCodec(jsonMapper.getIfAvailable(JsonMapper::new)),
				messageArguments.orderedStream().toList());
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static IdempotentAnnotationBeanPostProcessor idempotentAnnotationBeanPostProcessor(
			ObjectProvider<IdempotentMethodInterceptor> interceptor) {
		MethodInterceptor lazyAdvice = (invocation) -> interceptor.getObject().invoke(invocation);
		return new IdempotentAnnotationBeanPostProcessor(lazyAdvice);
	}

	@Configuration(proxyBeanMethods = false)
	static class FixedTenantConfiguration {

		@Bean
		@ConditionalOnMissingBean(TenantResolver.class)
		TenantResolver idempotencyTenantResolver(IdempotencyProperties properties) {
			String tenant = properties.getTenant().getDefaultTenant();
			return () -> tenant;
		}

	}

}
