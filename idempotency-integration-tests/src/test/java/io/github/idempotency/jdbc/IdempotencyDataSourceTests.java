package io.github.idempotency.jdbc;

import java.time.Duration;
import java.util.UUID;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.transaction.TransactionManager;
import org.springframework.transaction.annotation.Transactional;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.engine.IdempotencyAutoConfiguration;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyStore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The records in a {@code DataSource} qualified {@link IdempotencyDataSource}: the one an
 * application on R2DBC declares (Spring Boot configures none beside an R2DBC
 * {@code ConnectionFactory}), or one beside the application's own. Declared
 * {@code defaultCandidate = false}, it stays out of the application's way: Spring Boot makes no JDBC
 * transaction manager for it beside the application's reactive one.
 */
class IdempotencyDataSourceTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceTransactionManagerAutoConfiguration.class,
				JdbcTemplateAutoConfiguration.class, IdempotencyAutoConfiguration.class,
				IdempotencyJdbcAutoConfiguration.class))
		.withPropertyValues("idempotency.purge.cron=-");

	@Test
	void aRecordsDataSourceThatIsNoDefaultCandidateHoldsTheRecordsAndGetsNoTransactionManager() {
		this.runner.withUserConfiguration(RecordsOnly.class).run((context) -> {
			assertThat(context).hasNotFailed()
				.hasSingleBean(JdbcIdempotencyStore.class)
				.doesNotHaveBean(TransactionManager.class)
				.doesNotHaveBean(JdbcTemplate.class);
			IdempotencyStore store = context.getBean(IdempotencyStore.class);
			String key = "k-" + UUID.randomUUID();
			assertThat(store.claim(claim(key))).isInstanceOf(ClaimResult.Claimed.class);
			assertThat(records(context.getBean(RecordsOnly.class).records, key)).isOne();
			assertThat(context.getBean(JdbcIdempotencyStore.class).joinsApplicationTransactions()).isFalse();
		});
	}

	@Test
	void besideTheApplicationsOwnDataSourceTheRecordsGoToTheQualifiedOneOnly() {
		this.runner.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=jdbc:h2:mem:application-" + UUID.randomUUID())
			.withUserConfiguration(RecordsOnly.class)
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(TransactionManager.class);
				String key = "k-" + UUID.randomUUID();
				context.getBean(IdempotencyStore.class).claim(claim(key));
				assertThat(records(context.getBean(RecordsOnly.class).records, key)).isOne();
				assertThat(new JdbcTemplate(context.getBean(DataSource.class)).queryForObject(
						"SELECT count(*) FROM information_schema.tables WHERE lower(table_name) = 'idempotency_record'",
						Long.class))
					.isZero();
			});
	}

	@Test
	void anAtomicOperationIsRefusedAtStartUpWhenTheRecordsAreNotInTheApplicationsDatabase() {
		this.runner.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=jdbc:h2:mem:application-" + UUID.randomUUID(),
					"idempotency.default-mode=atomic")
			.withUserConfiguration(RecordsOnly.class)
			.run((context) -> assertThat(context.getStartupFailure()).isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("lacks what these operations need")
				.hasMessageContaining("idempotency.default-mode=atomic"));
	}

	@Test
	void aLeasedCallInACallerTransactionIsReleasedWhenTheCallerRollsBackAndStoredWhenItCommits() {
		this.runner
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, AopAutoConfiguration.class,
					TransactionAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=jdbc:h2:mem:application-" + UUID.randomUUID())
			.withUserConfiguration(RecordsOnly.class, Ledger.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				JdbcTemplate application = new JdbcTemplate(context.getBean(DataSource.class));
				application.execute("CREATE TABLE entry (id VARCHAR(64))");
				DataSource records = context.getBean(RecordsOnly.class).records;
				Ledger.Caller caller = context.getBean(Ledger.Caller.class);
				String id = "e-" + UUID.randomUUID();
				assertThatIllegalStateException().isThrownBy(() -> caller.postThenFail(id));
				assertThat(entries(application, id)).isZero();
				assertThat(status(records, id)).isEqualTo("RELEASED");
				caller.post(id);
				caller.post(id);
				assertThat(entries(application, id)).isOne();
				assertThat(status(records, id)).isEqualTo("COMPLETED");
			});
	}

	@Test
	void aQualifiedDataSourceThatIsTheApplicationsOnlyOneJoinsItsTransactions() {
		this.runner.withUserConfiguration(QualifiedApplicationDataSource.class).run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(TransactionManager.class);
			assertThat(context.getBean(JdbcIdempotencyStore.class).joinsApplicationTransactions()).isTrue();
		});
	}

	private static ClaimRequest claim(String key) {
		return new ClaimRequest(new IdempotencyKey("default", "pay", key), "fingerprint", Duration.ofSeconds(30),
				Duration.ofHours(1));
	}

	private static Long records(DataSource dataSource, String key) {
		return new JdbcTemplate(dataSource)
			.queryForObject("SELECT count(*) FROM idempotency_record WHERE idempotency_key = ?", Long.class, key);
	}

	@Configuration(proxyBeanMethods = false)
	static class RecordsOnly {

		final DataSource records = new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
			.setName("records-" + UUID.randomUUID())
			.build();

		@Bean(defaultCandidate = false)
		@IdempotencyDataSource
		DataSource idempotencyRecords() {
			return this.records;
		}

	}

	private static long entries(JdbcTemplate application, String id) {
		return application.queryForObject("SELECT count(*) FROM entry WHERE id = ?", Long.class, id);
	}

	private static String status(DataSource records, String id) {
		return new JdbcTemplate(records)
			.queryForObject("SELECT status FROM idempotency_record WHERE idempotency_key = ?", String.class, id);
	}

	/**
	 * A LEASED bean method that writes to the application's database, and a caller that calls it
	 * inside its own transaction.
	 */
	@Configuration(proxyBeanMethods = false)
	static class Ledger {

		@Bean
		Entries entries(DataSource dataSource) {
			return new Entries(new JdbcTemplate(dataSource));
		}

		@Bean
		Caller caller(Entries entries) {
			return new Caller(entries);
		}

		static class Entries {

			private final JdbcTemplate jdbc;

			Entries(JdbcTemplate jdbc) {
				this.jdbc = jdbc;
			}

			@Idempotent(operation = "post-entry", key = "#id")
			public String post(String id) {
				this.jdbc.update("INSERT INTO entry (id) VALUES (?)", id);
				return "posted " + id;
			}

		}

		static class Caller {

			private final Entries entries;

			Caller(Entries entries) {
				this.entries = entries;
			}

			@Transactional
			public String post(String id) {
				return this.entries.post(id);
			}

			@Transactional
			public String postThenFail(String id) {
				this.entries.post(id);
				throw new IllegalStateException("the caller failed after the idempotent call");
			}

		}

	}

	@Configuration(proxyBeanMethods = false)
	static class QualifiedApplicationDataSource {

		@Bean
		@IdempotencyDataSource
		DataSource dataSource() {
			return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
				.setName("only-" + UUID.randomUUID())
				.build();
		}

	}

}
