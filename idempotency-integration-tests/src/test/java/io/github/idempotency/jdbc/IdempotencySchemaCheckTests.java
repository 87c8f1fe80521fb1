package io.github.idempotency.jdbc;

import io.github.idempotency.engine.IdempotencyAutoConfiguration;

import java.util.UUID;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import io.github.idempotency.jdbc.IdempotencyColumns.Shortfall;
import io.github.idempotency.test.StarterColumns;
import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.MariaDbTestDatabase;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link IdempotencySchemaCheck}: tables that another schema tool changed after the starter's
 * migrations made them stop the start with what differs and the statements that repair it.
 */
class IdempotencySchemaCheckTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(DataSourceAutoConfiguration.class, IdempotencyJdbcAutoConfiguration.class,
					IdempotencyAutoConfiguration.class));

	@Test
	void aResponseHeadersColumnShortenedToVarchar255OnPostgresqlFailsTheStartWithTheRepair() {
		PostgresTestDatabase database = PostgresTestDatabase.create("schemacheck");
		DataSource dataSource = new SimpleDriverDataSource(new org.postgresql.Driver(), database.url(),
				database.username(), database.password());
		StarterColumns.asMigrated(dataSource);
		new JdbcTemplate(dataSource)
			.execute("ALTER TABLE idempotency_record ALTER COLUMN response_headers TYPE VARCHAR(255)");
		String[] properties = { "spring.datasource.url=" + database.url(),
				"spring.datasource.username=" + database.username(),
				"spring.datasource.password=" + database.password() };
		this.runner.withPropertyValues(properties).run((context) -> {
			assertThat(context).getFailure()
				.isInstanceOf(IdempotencySchemaMismatchException.class)
				.hasMessageContaining("idempotency_record.response_headers");
			FailureAnalysis analysis = new IdempotencySchemaMismatchFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("postgresql",
					"idempotency_record.response_headers is varchar(255), not TEXT");
			assertThat(analysis.getAction()).contains(
					"ALTER TABLE idempotency_record ALTER COLUMN response_headers SET DATA TYPE TEXT;",
					"classpath:io/github/idempotency/jdbc/schema-postgresql.sql");
			repair(dataSource, context.getStartupFailure());
		});
		this.runner.withPropertyValues(properties).run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void aResponseBodyColumnShortenedToVarbinary255OnH2FailsTheStartWithTheRepair() {
		String url = "jdbc:h2:mem:schemacheck_" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
		DataSource dataSource = new SimpleDriverDataSource(new org.h2.Driver(), url, "sa", "");
		StarterColumns.asMigrated(dataSource);
		new JdbcTemplate(dataSource)
			.execute("ALTER TABLE idempotency_record ALTER COLUMN response_body SET DATA TYPE VARBINARY(255)");
		this.runner.withPropertyValues("spring.datasource.url=" + url).run((context) -> {
			FailureAnalysis analysis = new IdempotencySchemaMismatchFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("h2",
					"idempotency_record.response_body is BINARY VARYING(255), not VARBINARY");
			assertThat(analysis.getAction()).contains(
					"ALTER TABLE idempotency_record ALTER COLUMN response_body SET DATA TYPE VARBINARY;");
			repair(dataSource, context.getStartupFailure());
		});
		this.runner.withPropertyValues("spring.datasource.url=" + url)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void aShorterKeyColumnAndANotNullResponseColumnOnH2AreNamedWithTheirRepairs() {
		String url = "jdbc:h2:mem:schemacheck_" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
		DataSource dataSource = new SimpleDriverDataSource(new org.h2.Driver(), url, "sa", "");
		StarterColumns.asMigrated(dataSource);
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		jdbc.execute("ALTER TABLE idempotency_record ALTER COLUMN idempotency_key SET DATA TYPE VARCHAR(36)");
		jdbc.execute("ALTER TABLE idempotency_record ALTER COLUMN response_status SET NOT NULL");
		this.runner.withPropertyValues("spring.datasource.url=" + url).run((context) -> {
			FailureAnalysis analysis = new IdempotencySchemaMismatchFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains(
					"idempotency_record.idempotency_key is CHARACTER VARYING(36), not VARCHAR(255)",
					"idempotency_record.response_status is NOT NULL");
			repair(dataSource, context.getStartupFailure());
		});
		this.runner.withPropertyValues("spring.datasource.url=" + url)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void aMediumblobBodyAndANotNullFailureColumnOnMariadbFailTheStartWithTheirRepairs() {
		MariaDbTestDatabase database = MariaDbTestDatabase.create("schemacheck");
		DataSource dataSource = new SimpleDriverDataSource(new org.mariadb.jdbc.Driver(), database.url(),
				database.username(), database.password());
		TestDataSources.migrate(dataSource);
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		jdbc.execute("ALTER TABLE idempotency_record MODIFY COLUMN response_body MEDIUMBLOB");
		jdbc.execute("ALTER TABLE idempotency_record MODIFY COLUMN last_failure VARCHAR(255) NOT NULL DEFAULT ''");
		String[] properties = { "spring.datasource.url=" + database.url(),
				"spring.datasource.username=" + database.username(),
				"spring.datasource.password=" + database.password() };
		this.runner.withPropertyValues(properties).run((context) -> {
			FailureAnalysis analysis = new IdempotencySchemaMismatchFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("mariadb", "idempotency_record.response_body is MEDIUMBLOB",
					"not LONGBLOB", "idempotency_record.last_failure is NOT NULL");
			assertThat(analysis.getAction()).contains(
					"ALTER TABLE idempotency_record MODIFY COLUMN response_body LONGBLOB NULL;",
					"ALTER TABLE idempotency_record MODIFY COLUMN last_failure VARCHAR(255) NULL;",
					"classpath:io/github/idempotency/jdbc/schema-mariadb.sql");
			repair(dataSource, context.getStartupFailure());
		});
		this.runner.withPropertyValues(properties).run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void aMissingTableIsNamedAndTheShippedScriptHasIt() {
		String url = "jdbc:h2:mem:schemacheck_" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
		DataSource dataSource = new SimpleDriverDataSource(new org.h2.Driver(), url, "sa", "");
		StarterColumns.asMigrated(dataSource);
		new JdbcTemplate(dataSource).execute("DROP TABLE idempotency_sequence");
		this.runner.withPropertyValues("spring.datasource.url=" + url).run((context) -> {
			FailureAnalysis analysis = new IdempotencySchemaMismatchFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("idempotency_sequence does not exist");
			assertThat(analysis.getAction()).contains("classpath:io/github/idempotency/jdbc/schema-h2.sql",
					"idempotency.jdbc.initialize-schema=always");
		});
	}

	@Test
	void tablesAsTheMigrationsMadeThemPassOnEveryDatabase() {
		PostgresTestDatabase database = PostgresTestDatabase.create("schemacheckok");
		this.runner
			.withPropertyValues("spring.datasource.url=" + database.url(),
					"spring.datasource.username=" + database.username(),
					"spring.datasource.password=" + database.password())
			.run((context) -> assertThat(context).hasNotFailed());
		MariaDbTestDatabase mariadb = MariaDbTestDatabase.create("schemacheckok");
		this.runner
			.withPropertyValues("spring.datasource.url=" + mariadb.url(),
					"spring.datasource.username=" + mariadb.username(),
					"spring.datasource.password=" + mariadb.password())
			.run((context) -> assertThat(context).hasNotFailed());
		this.runner.run((context) -> assertThat(context).hasNotFailed());
	}

	private static void repair(DataSource dataSource, Throwable failure) {
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		((IdempotencySchemaMismatchException) failure).shortfalls()
			.stream()
			.map(Shortfall::repair)
			.forEach(jdbc::execute);
	}

}
