package io.github.idempotency.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.sql.DataSource;

import org.aopalliance.intercept.MethodInterceptor;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.util.ClassUtils;
import tools.jackson.databind.json.JsonMapper;

import io.github.idempotency.aop.IdempotentAnnotationBeanPostProcessor;
import io.github.idempotency.aop.IdempotentAttributeSource;
import io.github.idempotency.aop.IdempotentInvocationHandler;
import io.github.idempotency.aop.IdempotentMethodInterceptor;
import io.github.idempotency.aop.KeyExpressionEvaluator;
import io.github.idempotency.aop.MethodIdempotencyHandler;
import io.github.idempotency.aop.ReturnValueCodec;
import io.github.idempotency.core.CompositeIdempotencyListener;
import io.github.idempotency.core.DefaultOutcomeClassifier;
import io.github.idempotency.core.IdempotencyEngine;
import io.github.idempotency.core.IdempotencyListener;
import io.github.idempotency.core.IdempotencyTransactions;
import io.github.idempotency.core.LeaseHeartbeat;
import io.github.idempotency.core.MdcIdempotencyListener;
import io.github.idempotency.core.OperationPolicies;
import io.github.idempotency.core.OutcomeClassifier;
import io.github.idempotency.core.RequestFingerprinter;
import io.github.idempotency.core.Sha256RequestFingerprinter;
import io.github.idempotency.core.TenantResolver;
import io.github.idempotency.metrics.BeanMethodOperationNames;
import io.github.idempotency.metrics.HandlerMethodOperationNames;
import io.github.idempotency.metrics.IdempotentOperationNames;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.jdbc.JdbcIdempotencyStore;
import io.github.idempotency.web.DefaultTenantResolver;
import io.github.idempotency.web.SecurityPrincipalName;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the idempotency engine and the advice
 * around {@code @Idempotent} methods.
 */
@AutoConfiguration(after = IdempotencyJdbcStoreAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "idempotency.enabled", matchIfMissing = true)
@EnableConfigurationProperties(IdempotencyProperties.class)
public final class IdempotencyAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	IdempotencyEngine idempotencyEngine(ObjectProvider<IdempotencyStore> store,
			ObjectProvider<IdempotencyListener> listeners, IdempotencyTransactions transactions,
			LeaseHeartbeat leaseHeartbeat) {
		return new IdempotencyEngine(requireStore(store), new CompositeIdempotencyListener(listeners.orderedStream().toList()),
				transactions, leaseHeartbeat);
	}

	@Bean
	@ConditionalOnMissingBean
	IdempotencyTransactions idempotencyTransactions(ObjectProvider<PlatformTransactionManager> transactionManager,
			ObjectProvider<IdempotencyStore> store, ObjectProvider<DataSource> dataSource) {
		return new IdempotencyTransactions(transactionManager.getIfUnique(),
				(requireStore(store) instanceof JdbcIdempotencyStore) ? dataSource.getIfUnique() : null);
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	LeaseHeartbeat idempotencyLeaseHeartbeat(ObjectProvider<IdempotencyStore> store) {
		return new LeaseHeartbeat(requireStore(store));
	}

	@Bean
	@ConditionalOnMissingBean
	BeanMethodOperationNames idempotencyBeanMethodOperationNames(ConfigurableListableBeanFactory beanFactory,
			IdempotentAttributeSource attributeSource, ObjectProvider<HandlerMethodOperationNames> handlerMethods) {
		return new BeanMethodOperationNames(beanFactory, attributeSource, handlerMethods.getIfAvailable() != null);
	}

	@Bean
	static OperationSettingsCheck idempotencyOperationSettingsCheck(Environment environment,
			ObjectProvider<IdempotentOperationNames> names) {
		return new OperationSettingsCheck(Binder.get(environment)
			.bind("idempotency.operations", Bindable.mapOf(String.class, IdempotencyProperties.Operation.class))
			.map(Map::keySet)
			.orElse(Set.of()), names);
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
	@ConditionalOnMissingBean
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
	@ConditionalOnMissingBean
	IdempotentMethodInterceptor idempotentMethodInterceptor(IdempotentAttributeSource attributeSource,
			ObjectProvider<IdempotentInvocationHandler> handlers) {
		return new IdempotentMethodInterceptor(attributeSource, handlers.orderedStream().toList());
	}

	@Bean
	@ConditionalOnMissingBean
	MethodIdempotencyHandler methodIdempotencyHandler(IdempotencyEngine engine, OperationPolicies policies,
			TenantResolver tenantResolver, RequestFingerprinter fingerprinter, KeyExpressionEvaluator keyEvaluator,
			OutcomeClassifier classifier, ObjectProvider<JsonMapper> jsonMapper) {
		return new MethodIdempotencyHandler(engine, policies, tenantResolver, fingerprinter, keyEvaluator, classifier,
				new ReturnValueCodec(jsonMapper.getIfAvailable(JsonMapper::new)));
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static IdempotentAnnotationBeanPostProcessor idempotentAnnotationBeanPostProcessor(
			ObjectProvider<IdempotentMethodInterceptor> interceptor) {
		MethodInterceptor lazyAdvice = (invocation) -> interceptor.getObject().invoke(invocation);
		return new IdempotentAnnotationBeanPostProcessor(lazyAdvice);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { "jakarta.servlet.http.HttpServletRequest",
			"org.springframework.web.context.request.RequestContextHolder" })
	static class WebTenantConfiguration {

		private static final String SECURITY_CONTEXT_HOLDER = "org.springframework.security.core.context.SecurityContextHolder";

		@Bean
		@ConditionalOnMissingBean(TenantResolver.class)
		DefaultTenantResolver idempotencyTenantResolver(IdempotencyProperties properties) {
			IdempotencyProperties.Tenant tenant = properties.getTenant();
			return new DefaultTenantResolver(
					ClassUtils.isPresent(SECURITY_CONTEXT_HOLDER, getClass().getClassLoader())
							? new SecurityPrincipalName() : () -> null,
					tenant.getHeader(), tenant.getDefaultTenant());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingClass("org.springframework.web.context.request.RequestContextHolder")
	static class FixedTenantConfiguration {

		@Bean
		@ConditionalOnMissingBean(TenantResolver.class)
		TenantResolver idempotencyTenantResolver(IdempotencyProperties properties) {
			String tenant = properties.getTenant().getDefaultTenant();
			return () -> tenant;
		}

	}

}
