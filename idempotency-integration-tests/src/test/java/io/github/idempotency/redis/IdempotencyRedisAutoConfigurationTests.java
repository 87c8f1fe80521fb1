package io.github.idempotency.redis;

import io.github.idempotency.engine.IdempotentInvocation;
import io.github.idempotency.actuate.IdempotencyActuatorAutoConfiguration;
import io.github.idempotency.engine.IdempotencyAutoConfiguration;
import io.github.idempotency.jdbc.IdempotencyDataSource;
import io.github.idempotency.jdbc.IdempotencyJdbcAutoConfiguration;

import java.util.UUID;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;

import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.store.IdempotencyRecordAdministration;
import io.github.idempotency.jdbc.JdbcIdempotencyStore;
import io.github.idempotency.jdbc.IdempotencyPurger;
import io.github.idempotency.store.IdempotencyStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link IdempotencyRedisAutoConfiguration}: which store an application gets, what comes with the
 * Redis store and what does not (purge, schema), and the start-up refusal of what Redis cannot do.
 */
class IdempotencyRedisAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
				IdempotencyJdbcAutoConfiguration.class, IdempotencyRedisAutoConfiguration.class,
				IdempotencyAutoConfiguration.class, IdempotencyActuatorAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=idempotency");

	private final ApplicationContextRunner withDataSource = this.runner
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
		.withPropertyValues("idempotency.purge.cron=-");

	@Test
	void anApplicationWithRedisAndNoDataSourceGetsTheRedisStore() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(IdempotentInvocation.class);
			assertThat(context.getBean(IdempotencyStore.class)).isInstanceOf(RedisIdempotencyStore.class);
			assertThat(context.getBean(IdempotencyRecordAdministration.class))
				.isInstanceOf(RedisIdempotencyRecordAdministration.class);
			assertThat(context).hasBean("idempotencyEndpoint")
				.doesNotHaveBean(IdempotencyPurger.class)
				.doesNotHaveBean("idempotencyPurgeScheduler");
		});
	}

	@Test
	void anApplicationWithADataSourceKeepsTheJdbcStoreUnlessItChoosesRedis() {
		this.withDataSource.run((context) -> {
			assertThat(context.getBean(IdempotencyStore.class)).isInstanceOf(JdbcIdempotencyStore.class);
			assertThat(context).doesNotHaveBean(RedisIdempotencyStore.class)
				.doesNotHaveBean(RedisStoreSettingsCheck.class);
		});
	}

	@Test
	void anApplicationWithRedisAndARecordsDataSourceOfItsOwnKeepsTheJdbcStore() {
		this.runner.withPropertyValues("idempotency.purge.cron=-")
			.withUserConfiguration(RecordsDataSource.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(IdempotencyStore.class)).isInstanceOf(JdbcIdempotencyStore.class);
				assertThat(context).doesNotHaveBean(RedisIdempotencyStore.class)
					.doesNotHaveBean(RedisStoreSettingsCheck.class);
			});
	}

	@Test
	void storeTypeRedisChoosesRedisOverADataSourceWithoutPurgeOrSchema() {
		this.withDataSource.withPropertyValues("idempotency.store.type=redis").run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(DataSource.class);
			assertThat(context.getBean(IdempotencyStore.class)).isInstanceOf(RedisIdempotencyStore.class);
			assertThat(context.getBean(IdempotencyRecordAdministration.class))
				.isInstanceOf(RedisIdempotencyRecordAdministration.class);
			assertThat(context).doesNotHaveBean(JdbcIdempotencyStore.class)
				.doesNotHaveBean(IdempotencyPurger.class)
				.doesNotHaveBean("idempotencyPurgeScheduler")
				.doesNotHaveBean("idempotencySchemaCheck");
		});
	}

	@Test
	void storeTypeJdbcWithoutADataSourceLeavesTheApplicationWithoutAStore() {
		this.runner.withPropertyValues("idempotency.store.type=jdbc")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageStartingWith("No IdempotencyStore: @Idempotent methods cannot be guarded"));
	}

	@Test
	void storeTypeRedisWithoutRedisLeavesTheApplicationWithoutAStore() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					IdempotencyJdbcAutoConfiguration.class, IdempotencyRedisAutoConfiguration.class,
					IdempotencyAutoConfiguration.class))
			.withPropertyValues("idempotency.store.type=redis")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageStartingWith("No IdempotencyStore: @Idempotent methods cannot be guarded"));
	}

	@Test
	void backsOffFromAStoreOfTheApplication() {
		this.runner.withUserConfiguration(OwnStoreConfiguration.class).run((context) -> {
			assertThat(context.getBean(IdempotencyStore.class)).isSameAs(context.getBean("ownStore"));
			assertThat(context).doesNotHaveBean(RedisIdempotencyRecordAdministration.class)
				.doesNotHaveBean(RedisStoreSettingsCheck.class);
		});
	}

	@Test
	void theHealthContributionPingsRedis() {
		this.runner.run((context) -> {
			assertThat(context.getBean("idempotencyHealthIndicator"))
				.isInstanceOf(RedisIdempotencyStoreHealthIndicator.class);
		});
		this.runner.withPropertyValues("management.health.idempotency.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("idempotencyHealthIndicator"));
	}

	@Test
	void aKeyPrefixThatWouldMoveTheHashTagFailsTheStart() {
		this.runner.withPropertyValues("idempotency.redis.key-prefix=app{1}:")
			.run((context) -> assertThat(context).getFailure().rootCause().hasMessageContaining("hash tag"));
	}

	@Test
	void anAtomicAnnotationIsRefusedAtStartUpNamingTheOperation() {
		this.runner.withUserConfiguration(AtomicLedgerConfiguration.class).run((context) -> {
			FailureAnalysis analysis = analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("operation 'post-ledger-entry' is ATOMIC")
				.contains("mode = ATOMIC");
			assertThat(analysis.getAction()).contains("idempotency.store.type=jdbc").contains("LEASED");
		});
	}

	@Test
	void anAtomicDefaultModeIsRefusedAtStartUp() {
		this.runner.withUserConfiguration(LeasedLedgerConfiguration.class)
			.withPropertyValues("idempotency.default-mode=atomic")
			.run((context) -> assertThat(analyze(context.getStartupFailure()).getDescription())
				.contains("idempotency.default-mode=atomic"));
	}

	@Test
	void anAtomicOrArchivedOperationSettingIsRefusedAtStartUp() {
		this.runner.withUserConfiguration(LeasedLedgerConfiguration.class)
			.withPropertyValues("idempotency.operations.[POST /payments].mode=atomic",
					"idempotency.operations.refunds.archive=true")
			.run((context) -> assertThat(analyze(context.getStartupFailure()).getDescription())
				.contains("operation 'POST /payments' is ATOMIC: idempotency.operations.[POST /payments].mode=atomic")
				.contains("operation 'refunds' is archived: idempotency.operations.refunds.archive=true"));
	}

	/**
	 * An annotation that names LEASED wins over a property that says ATOMIC, as it does at run
	 * time, so nothing is refused.
	 */
	@Test
	void leasedOperationsStartWhateverTheirPropertiesSay() {
		this.runner.withUserConfiguration(LeasedLedgerConfiguration.class)
			.withPropertyValues("idempotency.operations.post-ledger-entry.mode=atomic",
					"idempotency.operations.post-ledger-entry.ttl=7d")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(RedisStoreSettingsCheck.class));
	}

	@Test
	void theJdbcStoreStillRunsAtomicOperations() {
		this.withDataSource.withUserConfiguration(AtomicLedgerConfiguration.class)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	private static FailureAnalysis analyze(Throwable failure) {
		Throwable cause = failure;
		while (!(cause instanceof RedisStoreSettingsException)) {
			assertThat(cause).as("a RedisStoreSettingsException in the causes of %s", failure).isNotNull();
			cause = cause.getCause();
		}
		return new RedisStoreSettingsFailureAnalyzer().analyze(failure);
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnStoreConfiguration {

		@Bean
		IdempotencyStore ownStore() {
			return new RedisIdempotencyStore(
					new org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory(), "own:");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AtomicLedgerConfiguration {

		@Bean
		AtomicLedger ledger() {
			return new AtomicLedger();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LeasedLedgerConfiguration {

		@Bean
		LeasedLedger ledger() {
			return new LeasedLedger();
		}

	}

	static class AtomicLedger {

		@Idempotent(operation = "post-ledger-entry", key = "#entryId", mode = IdempotencyMode.ATOMIC)
		public String post(String entryId) {
			return entryId;
		}

	}

	static class LeasedLedger {

		@Idempotent(operation = "post-ledger-entry", key = "#entryId", mode = IdempotencyMode.LEASED)
		public String post(String entryId) {
			return entryId;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class RecordsDataSource {

		@Bean(defaultCandidate = false)
		@IdempotencyDataSource
		DataSource idempotencyRecords() {
			return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
				.setName("records-" + UUID.randomUUID())
				.build();
		}

	}

}
