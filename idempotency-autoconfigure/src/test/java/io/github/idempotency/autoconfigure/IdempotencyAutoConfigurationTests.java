package io.github.idempotency.autoconfigure;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.context.request.RequestContextHolder;

import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.aop.IdempotentAnnotationBeanPostProcessor;
import io.github.idempotency.aop.IdempotentMethodInterceptor;
import io.github.idempotency.core.DefaultOutcomeClassifier;
import io.github.idempotency.core.Disposition;
import io.github.idempotency.core.IdempotencyEngine;
import io.github.idempotency.core.IdempotencyListener;
import io.github.idempotency.core.IdempotencyTransactions;
import io.github.idempotency.core.LeaseHeartbeat;
import io.github.idempotency.core.OperationPolicies;
import io.github.idempotency.core.OutcomeClassifier;
import io.github.idempotency.core.RequestFingerprinter;
import io.github.idempotency.core.Sha256RequestFingerprinter;
import io.github.idempotency.core.TenantResolver;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.jdbc.JdbcIdempotencyStore;
import io.github.idempotency.store.schema.IdempotencySchemaInitializer;
import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.web.DefaultTenantResolver;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link IdempotencyAutoConfiguration} and {@link IdempotencyJdbcStoreAutoConfiguration} in an
 * application that is not a web application, on an embedded H2 database.
 */
class IdempotencyAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				IdempotencyJdbcStoreAutoConfiguration.class, IdempotencyAutoConfiguration.class,
				IdempotencyWebMvcAutoConfiguration.class));

	@Test
	void createsTheStoreTheEngineAndTheAdviceThatGuardsIdempotentMethods() {
		this.runner.withUserConfiguration(PaymentsConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(JdbcIdempotencyStore.class)
				.hasSingleBean(IdempotencySchemaInitializer.class)
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
			assertThat(context.getBean(TenantResolver.class)).isInstanceOf(DefaultTenantResolver.class);
			Payments payments = context.getBean(Payments.class);
			assertThat(AopUtils.isAopProxy(payments)).isTrue();
			assertThat(payments.pay("p-1")).isEqualTo("paid p-1 (1)");
			assertThat(payments.pay("p-1")).isEqualTo("paid p-1 (1)");
			assertThat(payments.pay("p-2")).isEqualTo("paid p-2 (2)");
			assertThat(tableCount(context.getBean(DataSource.class), "idempotency_record")).isOne();
		});
	}

	@Test
	void masterSwitchOffCreatesNothingAndLeavesIdempotentMethodsUnguarded() {
		this.runner.withUserConfiguration(PaymentsConfiguration.class)
			.withPropertyValues("idempotency.enabled=false")
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.doesNotHaveBean(IdempotencyStore.class)
					.doesNotHaveBean(IdempotencySchemaInitializer.class)
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
			.withConfiguration(AutoConfigurations.of(IdempotencyJdbcStoreAutoConfiguration.class,
					IdempotencyAutoConfiguration.class))
			.withUserConfiguration(PaymentsConfiguration.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(NoIdempotencyStoreException.class));
	}

	@Test
	void withoutADataSourceAndIdempotencyDisabledIdempotentMethodsRunUnguarded() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(IdempotencyJdbcStoreAutoConfiguration.class,
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
			.withConfiguration(AutoConfigurations.of(IdempotencyJdbcStoreAutoConfiguration.class,
					IdempotencyAutoConfiguration.class))
			.withUserConfiguration(TwoDataSourcesConfiguration.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(NoIdempotencyStoreException.class));
	}

	@Test
	void schemaMigrationOffCreatesNoSchemaInitializerAndUsesTheTablesTheApplicationCreated() {
		this.runner.withPropertyValues("idempotency.schema.migrate=false")
			.withUserConfiguration(OwnSchemaConfiguration.class)
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.doesNotHaveBean(IdempotencySchemaInitializer.class)
					.hasSingleBean(IdempotencyStore.class)
					.hasSingleBean(IdempotencyEngine.class);
				assertThat(context.getBean(DataSource.class).getConnection().getMetaData().getURL())
					.contains("own-schema");
			});
	}

	@Test
	void schemaMigrationOffWithoutTheTablesFailsTheStartWithWhatToDo() {
		this.runner.withPropertyValues("idempotency.schema.migrate=false")
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(IdempotencySchemaMissingException.class)
				.hasMessageContaining("idempotency_record"));
	}

	@Test
	void schemaInitializerUsesTheConfiguredHistoryTable() {
		this.runner.withPropertyValues("idempotency.schema.history-table=starter_history").run((context) -> {
			assertThat(tableCount(context.getBean(DataSource.class), "starter_history")).isOne();
			assertThat(tableCount(context.getBean(DataSource.class), "idempotency_schema_history")).isZero();
		});
	}

	/**
	 * On an empty database the application's Flyway migrations run first; the starter's then find
	 * a schema that is not empty and baseline their own history below their first migration.
	 */
	@Test
	void schemaInitializerRunsAfterTheApplicationsFlywayMigrations() {
		this.runner.withConfiguration(AutoConfigurations.of(FlywayAutoConfiguration.class))
			.withPropertyValues("spring.flyway.locations=classpath:db/schematest/app")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
				assertThat(jdbc.queryForList("SELECT \"type\" FROM \"flyway_schema_history\" "
						+ "ORDER BY \"installed_rank\"", String.class)).containsSubsequence("SQL", "SQL")
					.doesNotContain("BASELINE");
				assertThat(jdbc.queryForList("SELECT \"type\" FROM \"idempotency_schema_history\" "
						+ "ORDER BY \"installed_rank\"", String.class)).containsSubsequence("BASELINE", "SQL");
			});
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
	void backsOffFromAUserDefinedEngine() {
		this.runner.withUserConfiguration(UserEngineConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(IdempotencyEngine.class);
			assertThat(context.getBean(IdempotencyEngine.class)).isSameAs(context.getBean("userEngine"));
		});
	}

	@Test
	void withoutSpringWebTheTenantIsTheConfiguredDefault() {
		this.runner.withClassLoader(new FilteredClassLoader(RequestContextHolder.class))
			.withPropertyValues("idempotency.tenant.default-tenant=acme")
			.run((context) -> {
				assertThat(context).hasSingleBean(TenantResolver.class);
				assertThat(context.getBean(TenantResolver.class)).isNotInstanceOf(DefaultTenantResolver.class);
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

	/**
	 * A database whose idempotency tables the application created itself, from the starter's
	 * scripts.
	 */
	@Configuration(proxyBeanMethods = false)
	static class OwnSchemaConfiguration {

		@Bean
		DataSource dataSource() {
			return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
				.setName("own-schema-" + UUID.randomUUID())
				.addScript("db/idempotency/h2/V1__idempotency_record.sql")
				.build();
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

	@Configuration(proxyBeanMethods = false)
	static class UserEngineConfiguration {

		@Bean
		IdempotencyEngine userEngine(IdempotencyStore store, LeaseHeartbeat heartbeat) {
			return new IdempotencyEngine(store, IdempotencyListener.NONE, new IdempotencyTransactions(null, null),
					heartbeat);
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
