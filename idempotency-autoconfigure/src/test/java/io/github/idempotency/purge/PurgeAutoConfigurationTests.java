package io.github.idempotency.purge;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

import io.github.idempotency.autoconfigure.IdempotencyAutoConfiguration;
import io.github.idempotency.autoconfigure.IdempotencyJdbcAdministrationAutoConfiguration;
import io.github.idempotency.autoconfigure.IdempotencyJdbcStoreAutoConfiguration;
import io.github.idempotency.core.IdempotencyKey;
import io.github.idempotency.core.OperationPolicies;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.IdempotencyRecordAdministration;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.store.jdbc.DatabasePlatform;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link IdempotencyJdbcAdministrationAutoConfiguration}: the purge, its schedule and the operator
 * access, on an embedded H2 database.
 */
class PurgeAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				IdempotencyJdbcStoreAutoConfiguration.class, IdempotencyAutoConfiguration.class,
				IdempotencyJdbcAdministrationAutoConfiguration.class));

	@Test
	void createsThePurgeItsRunningScheduleAndTheOperatorAccessOnTheJdbcStore() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(IdempotencyPurger.class)
				.hasSingleBean(IdempotencyPurgeScheduler.class)
				.hasSingleBean(IdempotencyRecordAdministration.class);
			assertThat(context.getBean(IdempotencyPurgeScheduler.class).isRunning()).isTrue();
		});
	}

	@Test
	void theScheduleRunsThePurgeOnItsCronWithoutEnableScheduling() {
		this.runner.withUserConfiguration(RunListenerConfiguration.class)
			.withPropertyValues("idempotency.purge.cron=* * * * * *")
			.run((context) -> assertThat(
					context.getBean(RunListenerConfiguration.class).runs.await(10, TimeUnit.SECONDS))
				.isTrue());
	}

	@Test
	void cronDashTurnsTheScheduleOffButKeepsThePurge() {
		this.runner.withPropertyValues("idempotency.purge.cron=-").run((context) -> {
			assertThat(context).hasSingleBean(IdempotencyPurger.class).doesNotHaveBean(IdempotencyPurgeScheduler.class);
		});
	}

	@Test
	void aCronThatDoesNotParseFailsStartUp() {
		this.runner.withPropertyValues("idempotency.purge.cron=every minute")
			.run((context) -> assertThat(context).hasFailed());
	}

	@Test
	void masterSwitchOffCreatesNoPurge() {
		this.runner.withPropertyValues("idempotency.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(IdempotencyPurger.class)
				.doesNotHaveBean(IdempotencyPurgeScheduler.class)
				.doesNotHaveBean(IdempotencyRecordAdministration.class);
		});
	}

	@Test
	void aStoreOfTheApplicationsOwnGetsNoPurgeOfTheStartersTables() {
		this.runner.withUserConfiguration(OwnStoreConfiguration.class).run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(IdempotencyPurger.class)
				.doesNotHaveBean(IdempotencyPurgeScheduler.class)
				.doesNotHaveBean(IdempotencyRecordAdministration.class);
		});
	}

	@Test
	void operationsMarkedArchiveInThePropertiesAreArchivedByThePurge() {
		this.runner
			.withPropertyValues("idempotency.purge.cron=-", "idempotency.operations.payments.archive=true",
					"idempotency.operations.orders.ttl=1h")
			.run((context) -> {
				DataSource dataSource = context.getBean(DataSource.class);
				TestRecords records = new TestRecords(new JdbcTemplate(dataSource), DatabasePlatform.of(dataSource));
				records.completed("payments", "expired-", 3, Duration.ofHours(-1));
				records.completed("orders", "expired-", 4, Duration.ofHours(-1));
				PurgeResult result = context.getBean(IdempotencyPurger.class).purge();
				assertThat(result.expired()).isEqualTo(7);
				assertThat(result.archived()).isEqualTo(3);
				assertThat(records.archived("operation = 'payments'")).isEqualTo(3);
				assertThat(records.archived("operation = 'orders'")).isZero();
			});
	}

	@Test
	void anArchivedOperationArchivesTheExpiredRecordThatAClaimReplaces() {
		this.runner.withPropertyValues("idempotency.purge.cron=-", "idempotency.operations.payments.archive=true")
			.run((context) -> {
				IdempotencyStore store = context.getBean(IdempotencyStore.class);
				IdempotencyKey key = new IdempotencyKey("tenant", "payments", UUID.randomUUID().toString());
				ClaimRequest request = new ClaimRequest(key, "first", Duration.ofSeconds(30), Duration.ofHours(1),
						context.getBean(OperationPolicies.class)
							.policyFor("payments", null)
							.archive());
				UUID token = ((ClaimResult.Claimed) store.claim(request)).token();
				store.complete(key, token, new StoredResponse(201, Map.of(), new byte[] { 1 }),
						Duration.ofHours(1));
				JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
				jdbc.update("UPDATE idempotency_record SET expires_at = created_at");
				assertThat(store.claim(request)).isInstanceOf(ClaimResult.Claimed.class);
				assertThat(jdbc.queryForObject("SELECT count(*) FROM idempotency_record_archive", Long.class))
					.isOne();
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class RunListenerConfiguration {

		final CountDownLatch runs = new CountDownLatch(1);

		@Bean
		PurgeListener runListener() {
			return new PurgeListener() {

				@Override
				public void onRunFinished(PurgeResult result) {
					RunListenerConfiguration.this.runs.countDown();
				}

			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnStoreConfiguration {

		@Bean
		IdempotencyStore ownStore() {
			return new IdempotencyStore() {

				@Override
				public ClaimResult claim(ClaimRequest request) {
					throw new UnsupportedOperationException();
				}

				@Override
				public boolean complete(IdempotencyKey key, UUID token, StoredResponse response, Duration ttl) {
					throw new UnsupportedOperationException();
				}

				@Override
				public boolean release(IdempotencyKey key, UUID token) {
					throw new UnsupportedOperationException();
				}

				@Override
				public boolean extendLease(IdempotencyKey key, UUID token, Duration lease) {
					throw new UnsupportedOperationException();
				}

				@Override
				public Optional<IdempotencyRecord> find(IdempotencyKey key) {
					return Optional.empty();
				}

			};
		}

	}

}
