package io.github.idempotency.jdbc;

import java.time.Duration;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

import io.github.idempotency.engine.IdempotencyAutoConfiguration;
import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The auto-configured purge on its cron schedule against PostgreSQL, on two application instances
 * sharing one database.
 */
class PostgresScheduledPurgeTests {

	private static final PostgresTestDatabase database = PostgresTestDatabase.create("scheduledpurge");

	private static HikariDataSource dataSource;

	private final ApplicationContextRunner instance = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				TaskSchedulingAutoConfiguration.class, IdempotencyAutoConfiguration.class,
				IdempotencyJdbcAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=" + database.url(),
				"spring.datasource.username=" + database.username(),
				"spring.datasource.password=" + database.password(), "spring.datasource.hikari.maximum-pool-size=2",
				"idempotency.purge.cron=* * * * * *", "idempotency.purge.batch-size=100",
				"idempotency.purge.pause=0s", "idempotency.operations.payments.archive=true");

	@BeforeAll
	static void createSchema() {
		dataSource = TestDataSources.postgres(database, 2);
		TestDataSources.migrate(dataSource);
	}

	@AfterAll
	static void closeDataSource() {
		dataSource.close();
	}

	@Test
	void twoInstancesPurgingEverySecondDeleteEachExpiredRecordOnceAndKeepTheLiveOnes() {
		TestRecords records = new TestRecords(new JdbcTemplate(dataSource), DatabasePlatform.POSTGRESQL);
		records.completed("payments", "expired-", 1500, Duration.ofHours(-1));
		records.completed("orders", "expired-", 1500, Duration.ofHours(-1));
		records.completed("orders", "live-", 200, Duration.ofHours(1));
		records.inProgress("orders", "running-", 100, Duration.ofMinutes(5), Duration.ofHours(-1));
		this.instance.run((first) -> this.instance.run((second) -> {
			await().atMost(Duration.ofSeconds(30))
				.until(() -> records.count("idempotency_key LIKE 'expired-%'") == 0);
			assertThat(records.count("idempotency_key LIKE 'live-%'")).isEqualTo(200);
			assertThat(records.count("idempotency_key LIKE 'running-%'")).isEqualTo(100);
			assertThat(records.archived("operation = 'payments' AND idempotency_key LIKE 'expired-%'"))
				.isEqualTo(1500);
			assertThat(records.archived("operation <> 'payments'")).isZero();
		}));
	}

}
