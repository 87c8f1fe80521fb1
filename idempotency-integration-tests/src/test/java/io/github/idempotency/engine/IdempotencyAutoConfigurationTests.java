package io.github.idempotency.engine;

import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.IdempotencyKey;
import java.util.UUID;
import java.util.Optional;
import java.time.Duration;
import io.github.idempotency.jdbc.IdempotencyJdbcAutoConfiguration;
import io.github.idempotency.web.servlet.IdempotencyServletTenantAutoConfiguration;
import io.github.idempotency.web.servlet.IdempotencyWebMvcAutoConfiguration;

import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.context.request.RequestContextHolder;

import io.github.idempotency.Disposition;
import io.github.idempotency.IdempotencyListener;
import io.github.idempotency.OutcomeClassifier;
import io.github.idempotency.RequestFingerprinter;
import io.github.idempotency.TenantResolver;
import io.github.idempotency.IdempotencyException;
import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.annotation.IdempotentSequence;
import io.github.idempotency.fingerprint.Sha256RequestFingerprinter;
import io.github.idempotency.jdbc.JdbcIdempotencyStore;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.test.TestDataSources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * {@link IdempotencyAutoConfiguration} and {@link IdempotencyJdbcAutoConfiguration} in an
 * application that is not a web application, on an embedded H2 database.
 */
class IdempotencyAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				IdempotencyJdbcAutoConfiguration.class, IdempotencyAutoConfiguration.class,
				IdempotencyWebMvcAutoConfiguration.class,
				IdempotencyServletTenantAutoConfiguration.class));

	@Test
	void createsTheStoreTheEngineAndTheAdviceThatGuardsIdempotentMethods() {
		this.runner.withUserConfiguration(PaymentsConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(JdbcIdempotencyStore.class)
				.hasBean("idempotencySchemaInitializer")
				.hasSingleBean(IdempotencyEngine.class)
				.hasSingleBean(IdempotencyTransactions.class)
				.hasSingleBean(LeaseHeartbeat.class)
				.hasSingleBean(OperationPolicies.class)
				.hasSingleBean(OutcomeClassifier.class)
				.hasSingleBean(RequestFingerprinter.class)
				.hasSingleBean(TenantResolver.class)
				.hasSingleBean(IdempotentAnnotationBeanPostProcessor.class)
				.hasSingleBean(IdempotentMethodInterceptor.class)
				.hasSingleBean(IdempotencyProperties.class);
			assertThat(context.getBean(OutcomeClassifier.class)).isInstanceOf(DefaultOutcomeClassifier.class);
			assertThat(context.getBean(RequestFingerprinter.class)).isInstanceOf(Sha256RequestFingerprinter.class);
			assertThat(context.getBean(TenantResolver.class)).satisfies((resolver) -> assertThat(resolver.getClass().getSimpleName()).isEqualTo("DefaultTenantResolver"));
			Payments payments = context.getBean(Payments.class);
			assertThat(AopUtils.isAopProxy(payments)).isTrue();
			assertThat(payments.pay("p-1")).isEqualTo("paid p-1 (1)");
			assertThat(payments.pay("p-1")).isEqualTo("paid p-1 (1)");
			assertThat(payments.pay("p-2")).isEqualTo("paid p-2 (2)");
			assertThat(tableCount(context.getBean(DataSource.class), "idempotency_record")).isOne();
		});
	}

	@Test
	void sequencedOperationsRunOnTheJdbcStoreAndRefuseALowerNumber() {
		this.runner.withUserConfiguration(LedgerConfiguration.class).run((context) -> {
			assertThat(context).hasNotFailed();
			Ledger ledger = context.getBean(Ledger.class);
			assertThat(ledger.post("acct", 2)).isEqualTo("posted 2 (1)");
			IdempotencyException stale = catchThrowableOfType(IdempotencyException.class, () -> ledger.post("acct", 1));
			assertThat(stale.getBody().getType()).hasToString("urn:problem-type:idempotency:stale-sequence");
			assertThat(ledger.post("acct", 3)).isEqualTo("posted 3 (2)");
		});
	}

	@Test
	void sequencedOperationsOverAStoreThatKeepsNoSequenceNumbersStopTheStartAndSayWhatToDo() {
		this.runner.withUserConfiguration(LedgerConfiguration.class, StoreWithoutSequencesConfiguration.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).isInstanceOf(StoreCapabilitiesMissingException.class);
				FailureAnalysis analysis = new StoreCapabilitiesMissingFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("@IdempotentSequence")
					.contains("ledger-posting")
					.contains(StoreWithoutSequences.class.getName())
					.doesNotContain("ATOMIC");
				assertThat(analysis.getAction()).contains("SequencingIdempotencyStore").contains("advanceSequence");
			});
	}

	/**
	 * An ATOMIC claim must commit with the operation's writes: over a store that cannot join the
	 * operation's transaction, the claim would commit on its own, and the start is refused.
	 */
	@Test
	void atomicOperationsOverAStoreThatCannotJoinTheirTransactionStopTheStartAndSayWhatToDo() {
		this.runner.withUserConfiguration(PaymentsConfiguration.class, StoreWithoutSequencesConfiguration.class)
			.withPropertyValues("idempotency.operations.pay.mode=atomic")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).isInstanceOf(StoreCapabilitiesMissingException.class);
				FailureAnalysis analysis = new StoreCapabilitiesMissingFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("ATOMIC mode")
					.contains("operation 'pay' is ATOMIC: idempotency.operations.pay.mode=atomic")
					.contains(StoreWithoutSequences.class.getName())
					.doesNotContain("@IdempotentSequence");
				assertThat(analysis.getAction()).contains("LEASED").contains("TransactionalIdempotencyStore");
			});
	}

	@Test
	void theDefaultModeAtomicOverAStoreThatCannotJoinTransactionsStopsTheStart() {
		this.runner.withUserConfiguration(PaymentsConfiguration.class, StoreWithoutSequencesConfiguration.class)
			.withPropertyValues("idempotency.default-mode=atomic")
			.run((context) -> assertThat(context.getStartupFailure()).isInstanceOf(StoreCapabilitiesMissingException.class)
				.hasMessageContaining("idempotency.default-mode=atomic"));
	}

	@Test
	void atomicOperationsStartOverTheJdbcStore() {
		this.runner.withUserConfiguration(PaymentsConfiguration.class)
			.withPropertyValues("idempotency.operations.pay.mode=atomic")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void aStoreThatKeepsNoSequenceNumbersStartsWhereNoOperationNeedsThem() {
		this.runner.withUserConfiguration(PaymentsConfiguration.class, StoreWithoutSequencesConfiguration.class)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void masterSwitchOffCreatesNothingAndLeavesIdempotentMethodsUnguarded() {
		this.runner.withUserConfiguration(PaymentsConfiguration.class)
			.withPropertyValues("idempotency.enabled=false")
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.doesNotHaveBean(IdempotencyStore.class)
					.doesNotHaveBean("idempotencySchemaInitializer")
					.doesNotHaveBean(IdempotencyEngine.class)
					.doesNotHaveBean(LeaseHeartbeat.class)
					.doesNotHaveBean(OperationPolicies.class)
					.doesNotHaveBean(OutcomeClassifier.class)
					.doesNotHaveBean(TenantResolver.class)
					.doesNotHaveBean(IdempotentAnnotationBeanPostProcessor.class)
					.doesNotHaveBean(IdempotentMethodInterceptor.class)
					.doesNotHaveBean(IdempotencyProperties.class);
				Payments payments = context.getBean(Payments.class);
				assertThat(AopUtils.isAopProxy(payments)).isFalse();
				assertThat(payments.pay("p-1")).isEqualTo("paid p-1 (1)");
				assertThat(payments.pay("p-1")).isEqualTo("paid p-1 (2)");
				assertThat(tableCount(context.getBean(DataSource.class), "idempotency_record")).isZero();
			});
	}

	@Test
	void withoutADataSourceTheApplicationFailsToStartRatherThanRunIdempotentMethodsUnguarded() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(IdempotencyJdbcAutoConfiguration.class,
					IdempotencyAutoConfiguration.class))
			.withUserConfiguration(PaymentsConfiguration.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(NoIdempotencyStoreException.class));
	}

	@Test
	void theReplayCacheIsOffUnlessTurnedOn() {
		this.runner.run((context) -> assertThat(context.getBean(IdempotencyEngine.class))
			.extracting("cachedReplays")
			.isNull());
		this.runner.withPropertyValues("idempotency.replay-cache.enabled=true")
			.run((context) -> assertThat(context.getBean(IdempotencyEngine.class))
				.extracting("cachedReplays")
				.isInstanceOf(CachedReplays.class));
	}

	@Test
	void aReplayCacheTurnedOnWithoutCaffeineStopsTheStartAndSaysWhatToAdd() {
		this.runner.withPropertyValues("idempotency.replay-cache.enabled=true")
			.withClassLoader(new FilteredClassLoader("com.github.benmanes.caffeine"))
			.run((context) -> {
				assertThat(context).getFailure().rootCause().isInstanceOf(ReplayCacheUnavailableException.class);
				Throwable cause = context.getStartupFailure();
				while (!(cause instanceof ReplayCacheUnavailableException)) {
					cause = cause.getCause();
				}
				assertThat(new ReplayCacheUnavailableFailureAnalyzer().analyze(cause).getAction())
					.contains("com.github.ben-manes.caffeine:caffeine", "idempotency.replay-cache.enabled=false");
			});
	}

	@Test
	void withEveryStoreModuleOnTheClassPathTheFailureNamesNoModuleToAdd() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(IdempotencyJdbcAutoConfiguration.class,
					IdempotencyAutoConfiguration.class))
			.withUserConfiguration(PaymentsConfiguration.class)
			.run((context) -> {
				Throwable cause = context.getStartupFailure();
				while (!(cause instanceof NoIdempotencyStoreException)) {
					cause = cause.getCause();
				}
				assertThat(new NoIdempotencyStoreFailureAnalyzer().analyze(cause).getDescription())
					.doesNotContain("is on the class path but");
			});
	}

	@Test
	void withoutADataSourceAndIdempotencyDisabledIdempotentMethodsRunUnguarded() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(IdempotencyJdbcAutoConfiguration.class,
					IdempotencyAutoConfiguration.class))
			.withUserConfiguration(PaymentsConfiguration.class)
			.withPropertyValues("idempotency.enabled=false")
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.doesNotHaveBean(IdempotencyStore.class)
					.doesNotHaveBean(IdempotencyEngine.class)
					.doesNotHaveBean(IdempotentAnnotationBeanPostProcessor.class);
				assertThat(AopUtils.isAopProxy(context.getBean(Payments.class))).isFalse();
			});
	}

	@Test
	void withTwoDataSourcesAndNoPrimaryThereIsNoStoreAndTheApplicationFailsToStart() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(IdempotencyJdbcAutoConfiguration.class,
					IdempotencyAutoConfiguration.class))
			.withUserConfiguration(TwoDataSourcesConfiguration.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(NoIdempotencyStoreException.class));
	}

	@Test
	void backsOffFromAUserDefinedStore() {
		this.runner.withUserConfiguration(UserStoreConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(IdempotencyStore.class);
			assertThat(context.getBean(IdempotencyStore.class)).isSameAs(context.getBean("userStore"));
			assertThat(context).hasSingleBean(IdempotencyEngine.class);
		});
	}

	@Test
	void backsOffFromAUserDefinedTenantResolver() {
		this.runner.withBean("userTenantResolver", TenantResolver.class, () -> () -> "mine").run((context) -> {
			assertThat(context).hasSingleBean(TenantResolver.class);
			assertThat(context.getBean(TenantResolver.class).resolveTenant()).isEqualTo("mine");
		});
	}

	@Test
	void backsOffFromAUserDefinedOutcomeClassifier() {
		this.runner.withBean("userClassifier", OutcomeClassifier.class, UserOutcomeClassifier::new).run((context) -> {
			assertThat(context).hasSingleBean(OutcomeClassifier.class);
			assertThat(context.getBean(OutcomeClassifier.class)).isInstanceOf(UserOutcomeClassifier.class);
		});
	}

	@Test
	void backsOffFromAUserDefinedRequestFingerprinter() {
		this.runner.withBean("userFingerprinter", RequestFingerprinter.class, () -> (request) -> "constant")
			.run((context) -> {
				assertThat(context).hasSingleBean(RequestFingerprinter.class);
				assertThat(context.getBean(RequestFingerprinter.class)).isSameAs(context.getBean("userFingerprinter"));
			});
	}

	@Test
	void backsOffFromUserDefinedOperationPolicies() {
		OperationPolicies policies = (operation, mode) -> {
			throw new UnsupportedOperationException();
		};
		this.runner.withBean("userPolicies", OperationPolicies.class, () -> policies).run((context) -> {
			assertThat(context).hasSingleBean(OperationPolicies.class);
			assertThat(context.getBean(OperationPolicies.class)).isSameAs(policies);
		});
	}

	@Test
	void withoutSpringWebTheTenantIsTheConfiguredDefault() {
		this.runner.withClassLoader(new FilteredClassLoader(RequestContextHolder.class))
			.withPropertyValues("idempotency.tenant.default-tenant=acme")
			.run((context) -> {
				assertThat(context).hasSingleBean(TenantResolver.class);
				assertThat(context.getBean(TenantResolver.class)).satisfies((resolver) -> assertThat(resolver.getClass().getSimpleName()).isNotEqualTo("DefaultTenantResolver"));
				assertThat(context.getBean(TenantResolver.class).resolveTenant()).isEqualTo("acme");
			});
	}

	@Test
	void withSpringWebButWithoutTheServletApiTheTenantIsTheConfiguredDefault() {
		this.runner.withClassLoader(new FilteredClassLoader("jakarta.servlet."))
			.withPropertyValues("idempotency.tenant.default-tenant=acme")
			.run((context) -> {
				assertThat(context).hasSingleBean(TenantResolver.class);
				assertThat(context.getBean(TenantResolver.class)).satisfies((resolver) -> assertThat(resolver.getClass().getSimpleName()).isNotEqualTo("DefaultTenantResolver"));
				assertThat(context.getBean(TenantResolver.class).resolveTenant()).isEqualTo("acme");
			});
	}

	@Test
	void outsideARequestTheWebTenantResolverAnswersTheConfiguredDefault() {
		this.runner.withPropertyValues("idempotency.tenant.default-tenant=acme")
			.run((context) -> assertThat(context.getBean(TenantResolver.class).resolveTenant()).isEqualTo("acme"));
	}

	@Test
	void invalidOperationSettingsFailStartUp() {
		this.runner.withPropertyValues("idempotency.operations.create-payment.ttl=0s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("ttl"));
	}

	private static int tableCount(DataSource dataSource, String table) {
		return new JdbcTemplate(dataSource).queryForObject(
				"SELECT count(*) FROM information_schema.tables WHERE LOWER(table_name) = ?", Integer.class, table);
	}

	@Configuration(proxyBeanMethods = false)
	static class PaymentsConfiguration {

		@Bean
		Payments payments() {
			return new Payments();
		}

	}

	static class Payments {

		private final AtomicInteger calls = new AtomicInteger();

		@Idempotent(operation = "pay", key = "#id")
		String pay(String id) {
			return "paid " + id + " (" + this.calls.incrementAndGet() + ")";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LedgerConfiguration {

		@Bean
		Ledger ledger() {
			return new Ledger();
		}

	}

	static class Ledger {

		private final AtomicInteger calls = new AtomicInteger();

		@Idempotent(operation = "ledger-posting", key = "#account + ':' + #sequence")
		@IdempotentSequence(scope = "#account", value = "#sequence")
		String post(String account, long sequence) {
			return "posted " + sequence + " (" + this.calls.incrementAndGet() + ")";
		}

	}

	/**
	 * The JDBC store, as a store written before sequence numbers would be.
	 */
	@Configuration(proxyBeanMethods = false)
	static class StoreWithoutSequencesConfiguration {

		@Bean
		IdempotencyStore idempotencyStore(DataSource dataSource) {
			return new StoreWithoutSequences(dataSource);
		}

	}

	/**
	 * A JDBC store that offers only what every store must: no sequence numbers.
	 */
	static class StoreWithoutSequences implements IdempotencyStore {

		private final IdempotencyStore delegate;

		StoreWithoutSequences(DataSource dataSource) {
			this.delegate = new JdbcIdempotencyStore(dataSource);
		}

		@Override
		public ClaimResult claim(ClaimRequest request) {
			return this.delegate.claim(request);
		}

		@Override
		public boolean complete(IdempotencyKey key, UUID token, StoredResponse response, Duration ttl) {
			return this.delegate.complete(key, token, response, ttl);
		}

		@Override
		public boolean release(IdempotencyKey key, UUID token) {
			return this.delegate.release(key, token);
		}

		@Override
		public boolean extendLease(IdempotencyKey key, UUID token, Duration lease) {
			return this.delegate.extendLease(key, token, lease);
		}

		@Override
		public Optional<IdempotencyRecord> find(IdempotencyKey key) {
			return this.delegate.find(key);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoDataSourcesConfiguration {

		@Bean
		DataSource first() {
			return TestDataSources.h2();
		}

		@Bean
		DataSource second() {
			return TestDataSources.h2();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserStoreConfiguration {

		@Bean
		IdempotencyStore userStore(DataSource dataSource) {
			TestDataSources.migrate(dataSource);
			return TestDataSources.store(dataSource);
		}

	}


	static class UserOutcomeClassifier implements OutcomeClassifier {

		@Override
		public Disposition classify(int status, Throwable failure) {
			return Disposition.STORE;
		}

		@Override
		public Disposition classify(Throwable failure) {
			return Disposition.STORE;
		}

	}

}
