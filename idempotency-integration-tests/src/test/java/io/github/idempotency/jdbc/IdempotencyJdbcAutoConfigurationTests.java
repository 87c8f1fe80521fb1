package io.github.idempotency.jdbc;

import io.github.idempotency.jdbc.IdempotencyPurger.PurgeListener;

import io.github.idempotency.jdbc.IdempotencyPurger.PurgeReason;

import io.github.idempotency.jdbc.IdempotencyPurger.PurgeResult;

import io.github.idempotency.engine.IdempotencyAutoConfiguration;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.flywaydb.core.Flyway;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.actuate.autoconfigure.scheduling.ScheduledTasksEndpointAutoConfiguration;
import org.springframework.boot.actuate.scheduling.ScheduledTasksEndpoint.CronTaskDescriptor;
import org.springframework.boot.actuate.scheduling.ScheduledTasksEndpoint.ScheduledTasksDescriptor;
import org.springframework.boot.actuate.scheduling.ScheduledTasksEndpoint.TaskDescriptor;
import org.springframework.boot.actuate.scheduling.ScheduledTasksEndpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.task.ThreadPoolTaskSchedulerCustomizer;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.scheduling.config.TaskExecutionOutcome;
import org.springframework.scheduling.config.TaskManagementConfigUtils;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.IdempotencyRecordAdministration;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.test.StarterMigrations;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link IdempotencyJdbcAutoConfiguration}: the schema and its initialization, the purge, its
 * schedule and the operator access, on an embedded H2 database unless a test says otherwise.
 */
class IdempotencyJdbcAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				IdempotencyJdbcAutoConfiguration.class, IdempotencyAutoConfiguration.class,
				IdempotencyJdbcAutoConfiguration.class));

	private final ApplicationContextRunner actuatorRunner = this.runner
		.withConfiguration(AutoConfigurations.of(ScheduledTasksEndpointAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=scheduledtasks");

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final String EVERY_SECOND = "* * * * * *";

	private static final String[] SLOW_PURGE = { "idempotency.purge.cron=" + EVERY_SECOND,
			"idempotency.purge.batch-size=1", "idempotency.purge.pause=1s" };

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
	void theStoreThePurgeAndTheOperatorAccessShareOneSetOfStatementsForTheDataSource() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(IdempotencyStatements.class));
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
	void thePurgeIsListedByTheScheduledTasksEndpointAsACronTaskWithItsExpression() {
		this.actuatorRunner.withPropertyValues("idempotency.purge.cron=0 */5 * * * *").run((context) -> {
			List<TaskDescriptor> cron = context.getBean(ScheduledTasksEndpoint.class).scheduledTasks().getCron();
			assertThat(cron).singleElement().satisfies((task) -> {
				assertThat(((CronTaskDescriptor) task).getExpression()).isEqualTo("0 */5 * * * *");
				assertThat(task.getRunnable().getTarget()).isEqualTo(IdempotencyPurger.class.getName() + ".purge");
				assertThat(task.getNextExecution()).isNotNull();
			});
		});
	}

	@Test
	void theScheduledTasksEndpointShowsTheLastRunOfThePurge() {
		this.actuatorRunner.withPropertyValues("idempotency.purge.cron=" + EVERY_SECOND).run((context) -> {
			ScheduledTasksEndpoint endpoint = context.getBean(ScheduledTasksEndpoint.class);
			await().atMost(TIMEOUT).untilAsserted(() -> assertThat(endpoint.scheduledTasks().getCron())
				.singleElement()
				.satisfies((task) -> assertThat(task.getLastExecution()).isNotNull()
					.satisfies((last) -> assertThat(last.getStatus()).isEqualTo(TaskExecutionOutcome.Status.SUCCESS))));
		});
	}

	@Test
	void cronDashRegistersNoScheduledTask() {
		this.actuatorRunner.withPropertyValues("idempotency.purge.cron=-").run((context) -> {
			ScheduledTasksDescriptor tasks = context.getBean(ScheduledTasksEndpoint.class).scheduledTasks();
			assertThat(tasks.getCron()).isEmpty();
			assertThat(tasks.getCustom()).isEmpty();
			assertThat(context).doesNotHaveBean(IdempotencyPurgeScheduler.class);
		});
	}

	@Test
	void anApplicationScheduledMethodIsNotRunByAddingTheStarterWhileThePurgeIs() {
		this.runner.withConfiguration(AutoConfigurations.of(TaskSchedulingAutoConfiguration.class))
			.withUserConfiguration(PurgeRunsConfiguration.class, TickerConfiguration.class)
			.withPropertyValues("idempotency.purge.cron=" + EVERY_SECOND)
			.run((context) -> {
				PurgeRuns runs = context.getBean(PurgeRuns.class);
				// A second apart: a method scheduled every 10 ms would have run by then.
				await().atMost(TIMEOUT).until(() -> runs.finished.size() >= 2);
				assertThat(context.getBean(Ticker.class).ticks).hasValue(0);
				assertThat(context).doesNotHaveBean(TaskManagementConfigUtils.SCHEDULED_ANNOTATION_PROCESSOR_BEAN_NAME)
					.doesNotHaveBean(TaskScheduler.class);
			});
	}

	@Test
	void thePurgeRunsOnTheApplicationsOwnTaskScheduler() {
		this.runner.withUserConfiguration(PurgeRunsConfiguration.class, ApplicationSchedulerConfiguration.class)
			.withPropertyValues("idempotency.purge.cron=" + EVERY_SECOND)
			.run((context) -> assertThat(context.getBean(PurgeRuns.class).firstThread().getName())
				.startsWith("application-scheduler-"));
	}

	@Test
	void withSeveralTaskSchedulersThePurgeRunsOnTheOneNamedTaskScheduler() {
		this.runner
			.withUserConfiguration(PurgeRunsConfiguration.class, ApplicationSchedulerConfiguration.class,
					TwoSchedulersConfiguration.class)
			.withPropertyValues("idempotency.purge.cron=" + EVERY_SECOND)
			.run((context) -> assertThat(context.getBean(PurgeRuns.class).firstThread().getName())
				.startsWith("named-task-scheduler-"));
	}

	@Test
	void thePurgeRunsOnBootsTaskSchedulerWhenTheApplicationEnablesScheduling() {
		this.runner.withConfiguration(AutoConfigurations.of(TaskSchedulingAutoConfiguration.class))
			.withUserConfiguration(PurgeRunsConfiguration.class, EnableSchedulingConfiguration.class)
			.withPropertyValues("idempotency.purge.cron=" + EVERY_SECOND,
					"spring.task.scheduling.thread-name-prefix=boot-scheduling-")
			.run((context) -> {
				assertThat(context).hasSingleBean(TaskScheduler.class);
				assertThat(context.getBean(PurgeRuns.class).firstThread().getName()).startsWith("boot-scheduling-");
			});
	}

	@Test
	void withoutATaskSchedulerThePurgeRunsOnAThreadOfItsOwnBuiltWithBootsSchedulerBuilder() {
		this.runner.withConfiguration(AutoConfigurations.of(TaskSchedulingAutoConfiguration.class))
			.withUserConfiguration(PurgeRunsConfiguration.class, SchedulerCustomizerConfiguration.class)
			.withPropertyValues("idempotency.purge.cron=" + EVERY_SECOND)
			.run((context) -> {
				assertThat(context.getBean(PurgeRuns.class).firstThread().getName())
					.startsWith(IdempotencyPurgeScheduler.THREAD_NAME_PREFIX);
				assertThat(context.getBean(SchedulerCustomizerConfiguration.class).customized)
					.containsExactly(IdempotencyPurgeScheduler.THREAD_NAME_PREFIX);
				assertThat(context).doesNotHaveBean(TaskScheduler.class);
			});
	}

	@Test
	void withoutBootsTaskSchedulingThePurgeRunsOnADaemonThreadOfItsOwn() {
		this.runner.withUserConfiguration(PurgeRunsConfiguration.class)
			.withPropertyValues("idempotency.purge.cron=" + EVERY_SECOND)
			.run((context) -> {
				Thread thread = context.getBean(PurgeRuns.class).firstThread();
				assertThat(thread.getName()).startsWith(IdempotencyPurgeScheduler.THREAD_NAME_PREFIX);
				assertThat(thread.isDaemon()).isTrue();
				assertThat(context).doesNotHaveBean(TaskScheduler.class);
			});
	}

	@Test
	void eachPurgeRunIsObservedAsAScheduledTaskExecution() {
		this.runner.withUserConfiguration(ObservationConfiguration.class)
			.withPropertyValues("idempotency.purge.cron=" + EVERY_SECOND)
			.run((context) -> {
				List<Observation.Context> stopped = context.getBean(ObservationConfiguration.class).stopped;
				await().atMost(TIMEOUT).until(() -> !stopped.isEmpty());
				Observation.Context observed = stopped.get(0);
				assertThat(observed.getName()).isEqualTo("tasks.scheduled.execution");
				assertThat(observed.getLowCardinalityKeyValue("code.namespace").getValue())
					.isEqualTo(IdempotencyPurger.class.getName());
				assertThat(observed.getLowCardinalityKeyValue("code.function").getValue()).isEqualTo("purge");
				assertThat(observed.getLowCardinalityKeyValue("outcome").getValue()).isEqualTo("SUCCESS");
			});
	}

	@Test
	void aFailedRunIsRetriedAtTheNextScheduledRun() {
		this.runner.withUserConfiguration(FailingFirstRunConfiguration.class)
			.withPropertyValues("idempotency.purge.cron=" + EVERY_SECOND)
			.run((context) -> {
				AtomicInteger runs = context.getBean(FailingFirstRunConfiguration.class).runs;
				await().atMost(TIMEOUT).until(() -> runs.get() >= 2);
			});
	}

	@Test
	void closingTheContextInterruptsARunningPurgeBetweenTwoBatchesAndEndsItsThread() {
		this.runner.withUserConfiguration(PurgeRunsConfiguration.class)
			.withPropertyValues(SLOW_PURGE)
			.run((context) -> {
				PurgeRuns runs = context.getBean(PurgeRuns.class);
				Thread thread = interruptedByClosing(context, runs);
				await().atMost(Duration.ofSeconds(5)).until(() -> !thread.isAlive());
			});
	}

	@Test
	void closingTheContextInterruptsAPurgeRunningOnTheApplicationsTaskScheduler() {
		this.runner.withUserConfiguration(PurgeRunsConfiguration.class, ApplicationSchedulerConfiguration.class)
			.withPropertyValues(SLOW_PURGE)
			.run((context) -> assertThat(interruptedByClosing(context, context.getBean(PurgeRuns.class)).getName())
				.startsWith("application-scheduler-"));
	}

	/**
	 * Close the context during the first run that deletes records, and return the thread of that
	 * run once it has ended, interrupted.
	 */
	private static Thread interruptedByClosing(ConfigurableApplicationContext context, PurgeRuns runs)
			throws InterruptedException {
		DataSource dataSource = context.getBean(DataSource.class);
		TestRecords records = new TestRecords(new JdbcTemplate(dataSource), DatabasePlatform.of(dataSource));
		records.completed("orders", "expired-", 20, Duration.ofHours(-1));
		assertThat(runs.firstBatch.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		long closing = System.nanoTime();
		context.close();
		// Uninterrupted, the run would take 19 s more, pausing between its 20 batches.
		PurgeRuns.Run run = await().atMost(Duration.ofSeconds(5)).until(runs::firstDeleting, Objects::nonNull);
		assertThat(Duration.ofNanos(System.nanoTime() - closing)).isLessThan(Duration.ofSeconds(5));
		assertThat(run.result().expired()).isLessThan(20);
		return run.thread();
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
						true);
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

	@Test
	void byDefaultTheStarterCreatesItsTablesOnH2WithItsMigrationsInAHistoryTableOfTheirOwn() {
		this.runner.run((context) -> {
			DataSource dataSource = context.getBean(DataSource.class);
			assertThat(tableCount(dataSource, "idempotency_record")).isOne();
			assertThat(tableCount(dataSource, "idempotency_record_archive")).isOne();
			assertThat(migrationsApplied(dataSource, "idempotency_schema_history"))
				.containsExactlyElementsOf(StarterMigrations.versions(DatabasePlatform.H2.id()));
			assertThat(tableCount(dataSource, "flyway_schema_history")).isZero();
		});
	}

	@Test
	void byDefaultTheStarterCreatesItsTablesOnPostgresql() {
		PostgresTestDatabase database = PostgresTestDatabase.create("initdefault");
		this.runner.withPropertyValues(postgres(database)).run((context) -> {
			DataSource dataSource = context.getBean(DataSource.class);
			assertThat(tableCount(dataSource, "idempotency_record")).isOne();
			assertThat(migrationsApplied(dataSource, "idempotency_schema_history"))
				.containsExactlyElementsOf(StarterMigrations.versions(DatabasePlatform.POSTGRESQL.id()));
		});
	}

	@Test
	void neverCreatesNothingAndTheStoreUsesTheTablesTheApplicationCreatedFromTheShippedScript() {
		this.runner.withPropertyValues("idempotency.jdbc.initialize-schema=never")
			.withUserConfiguration(OwnSchemaConfiguration.class)
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(IdempotencySchemaInitializer.class);
				DataSource dataSource = context.getBean(DataSource.class);
				assertThat(dataSource.getConnection().getMetaData().getURL()).contains("own-schema");
				assertThat(tableCount(dataSource, "idempotency_schema_history")).isZero();
				IdempotencyKey key = new IdempotencyKey("tenant", "orders", "own-schema");
				assertThat(context.getBean(IdempotencyStore.class)
					.claim(new ClaimRequest(key, "fp", Duration.ofSeconds(30), Duration.ofHours(1))))
					.isInstanceOf(ClaimResult.Claimed.class);
			});
	}

	@Test
	void neverOnADatabaseWithoutTheTablesCreatesNothingAndFailsTheStartWithWhatToDo() {
		this.runner.withPropertyValues("idempotency.jdbc.initialize-schema=never").run((context) -> {
			assertThat(context).getFailure()
				.isInstanceOf(IdempotencySchemaMissingException.class)
				.hasMessageContaining("idempotency_record");
			FailureAnalysis analysis = new IdempotencySchemaMissingFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("idempotency_record", "h2",
					"idempotency.jdbc.initialize-schema is never");
			assertThat(analysis.getAction()).contains("idempotency.jdbc.initialize-schema=always",
					"classpath:io/github/idempotency/jdbc/schema-h2.sql");
		});
	}

	@Test
	void embeddedCreatesTheTablesOnH2() {
		this.runner.withPropertyValues("idempotency.jdbc.initialize-schema=embedded").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(tableCount(context.getBean(DataSource.class), "idempotency_record")).isOne();
		});
	}

	@Test
	void embeddedCreatesNothingOnPostgresqlAndTheStartSaysWhatToDo() {
		PostgresTestDatabase database = PostgresTestDatabase.create("initembedded");
		this.runner.withPropertyValues(postgres(database))
			.withPropertyValues("idempotency.jdbc.initialize-schema=embedded")
			.run((context) -> {
				assertThat(context).getFailure().isInstanceOf(IdempotencySchemaMissingException.class);
				assertThat(new IdempotencySchemaMissingFailureAnalyzer().analyze(context.getStartupFailure())
					.getAction()).contains("classpath:io/github/idempotency/jdbc/schema-postgresql.sql");
			});
		DataSource dataSource = new SimpleDriverDataSource(new org.postgresql.Driver(), database.url(),
				database.username(), database.password());
		assertThat(tableCount(dataSource, "idempotency_record")).isZero();
		assertThat(tableCount(dataSource, "idempotency_schema_history")).isZero();
	}

	@Test
	void withoutFlywayAnInitializationThatIsAskedForFailsTheStartWithWhatToDo() {
		this.runner.withClassLoader(new FilteredClassLoader(Flyway.class)).run((context) -> {
			assertThat(context).getFailure().rootCause().isInstanceOf(IdempotencyFlywayMissingException.class);
			FailureAnalysis analysis = new IdempotencyFlywayMissingFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("idempotency.jdbc.initialize-schema is always",
					"Flyway is not on the classpath");
			assertThat(analysis.getAction()).contains("org.flywaydb:flyway-core",
					"idempotency.jdbc.initialize-schema=never", "classpath:io/github/idempotency/jdbc/schema-h2.sql");
		});
	}

	@Test
	void withoutFlywayNeverStartsOnTheTablesTheApplicationCreatedFromTheShippedScript() {
		this.runner.withClassLoader(new FilteredClassLoader(Flyway.class))
			.withPropertyValues("idempotency.jdbc.initialize-schema=never")
			.withUserConfiguration(OwnSchemaConfiguration.class)
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(IdempotencyStore.class));
	}

	@Test
	void theFlywayHistoryTableOfTheStartersMigrationsIsConfigurable() {
		this.runner.withPropertyValues("idempotency.jdbc.flyway-history-table=starter_history").run((context) -> {
			assertThat(tableCount(context.getBean(DataSource.class), "starter_history")).isOne();
			assertThat(tableCount(context.getBean(DataSource.class), "idempotency_schema_history")).isZero();
		});
	}

	/**
	 * On an empty database the application's Flyway migrations run first; the starter's then find
	 * a schema that is not empty and baseline their own history below their first migration.
	 */
	@Test
	void theStartersMigrationsRunAfterTheApplicationsFlywayMigrations() {
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
	void theStoreAndTheSchemaCheckDependOnDatabaseInitializationAndSoOnTheStartersMigrations() {
		this.runner.run((context) -> {
			ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
			assertThat(beanFactory.getBeanNamesForType(IdempotencySchemaInitializer.class))
				.containsExactly("idempotencySchemaInitializer");
			assertThat(beanFactory.getBeanDefinition("idempotencyStore").getDependsOn())
				.contains("idempotencySchemaInitializer");
			assertThat(beanFactory.getBeanDefinition("idempotencySchemaCheck").getDependsOn())
				.contains("idempotencySchemaInitializer");
		});
	}

	private static String[] postgres(PostgresTestDatabase database) {
		return new String[] { "spring.datasource.url=" + database.url(),
				"spring.datasource.username=" + database.username(),
				"spring.datasource.password=" + database.password() };
	}

	private static int tableCount(DataSource dataSource, String table) {
		return new JdbcTemplate(dataSource).queryForObject(
				"SELECT count(*) FROM information_schema.tables WHERE LOWER(table_name) = ?", Integer.class, table);
	}

	private static List<String> migrationsApplied(DataSource dataSource, String historyTable) {
		return new JdbcTemplate(dataSource).queryForList("SELECT \"version\" FROM \"" + historyTable
				+ "\" WHERE \"type\" = 'SQL' AND \"success\" ORDER BY \"installed_rank\"", String.class);
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

	/**
	 * A database whose idempotency tables the application created itself, from the starter's
	 * shipped script.
	 */
	@Configuration(proxyBeanMethods = false)
	static class OwnSchemaConfiguration {

		@Bean
		DataSource dataSource() {
			return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
				.setName("own-schema-" + UUID.randomUUID())
				.addScript(DatabasePlatform.H2.schemaScript())
				.build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PurgeRunsConfiguration {

		@Bean
		PurgeRuns purgeRuns() {
			return new PurgeRuns();
		}

	}

	/**
	 * Records the end of every purge run and the thread it ran on.
	 */
	static class PurgeRuns implements PurgeListener {

		final CountDownLatch firstBatch = new CountDownLatch(1);

		final List<Run> finished = new CopyOnWriteArrayList<>();

		@Override
		public void onBatch(PurgeReason reason, long deleted, long archived) {
			if (deleted > 0) {
				this.firstBatch.countDown();
			}
		}

		@Override
		public void onRunFinished(PurgeResult result) {
			this.finished.add(new Run(result, Thread.currentThread()));
		}

		/**
		 * Return the first finished run that deleted records.
		 */
		@Nullable Run firstDeleting() {
			return this.finished.stream().filter((run) -> run.result().deleted() > 0).findFirst().orElse(null);
		}

		Thread firstThread() {
			await().atMost(TIMEOUT).until(() -> !this.finished.isEmpty());
			return this.finished.get(0).thread();
		}

		record Run(PurgeResult result, Thread thread) {

		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FailingFirstRunConfiguration {

		final AtomicInteger runs = new AtomicInteger();

		@Bean
		PurgeListener failingFirstRun() {
			return new PurgeListener() {

				@Override
				public void onRunFinished(PurgeResult result) {
					if (FailingFirstRunConfiguration.this.runs.incrementAndGet() == 1) {
						throw new IllegalStateException("The first run fails");
					}
				}

			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TickerConfiguration {

		@Bean
		Ticker ticker() {
			return new Ticker();
		}

	}

	static class Ticker {

		final AtomicInteger ticks = new AtomicInteger();

		@Scheduled(fixedRate = 10)
		void tick() {
			this.ticks.incrementAndGet();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ApplicationSchedulerConfiguration {

		@Bean
		ThreadPoolTaskScheduler applicationScheduler() {
			ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
			scheduler.setThreadNamePrefix("application-scheduler-");
			return scheduler;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoSchedulersConfiguration {

		@Bean
		ThreadPoolTaskScheduler taskScheduler() {
			ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
			scheduler.setThreadNamePrefix("named-task-scheduler-");
			return scheduler;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class EnableSchedulingConfiguration {

	}

	@Configuration(proxyBeanMethods = false)
	static class SchedulerCustomizerConfiguration {

		final List<String> customized = new CopyOnWriteArrayList<>();

		@Bean
		ThreadPoolTaskSchedulerCustomizer recordingCustomizer() {
			return (scheduler) -> this.customized.add(scheduler.getThreadNamePrefix());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ObservationConfiguration {

		final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();

		@Bean
		ObservationRegistry observationRegistry() {
			ObservationRegistry registry = ObservationRegistry.create();
			registry.observationConfig().observationHandler(new ObservationHandler<Observation.Context>() {

				@Override
				public boolean supportsContext(Observation.Context context) {
					return true;
				}

				@Override
				public void onStop(Observation.Context context) {
					ObservationConfiguration.this.stopped.add(context);
				}

			});
			return registry;
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
