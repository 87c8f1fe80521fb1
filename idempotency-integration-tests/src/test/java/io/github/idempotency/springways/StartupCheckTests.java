package io.github.idempotency.springways;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import io.github.idempotency.springways.nodb.NoDatabaseApplication;
import io.github.idempotency.test.StarterColumns;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Misconfigurations a new user runs into stop the application at start-up with a message that
 * says what to do, or are warned about; never silently ignored.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupCheckTests {

	@Test
	void applicationWithoutADataSourceFailsToStartAndSaysWhy(CapturedOutput output) {
		assertThatException().isThrownBy(() -> startWithoutDatabase("spring.autoconfigure.exclude="
				+ "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration,"
				+ "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration,"
				+ "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration,"
				+ "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration"));
		assertThat(output).contains("APPLICATION FAILED TO START");
		assertThat(output).contains("@Idempotent");
		assertThat(output).contains("idempotency.enabled=false");
	}

	@Test
	void applicationWithoutADataSourceStartsWhenIdempotencyIsDisabled() {
		try (ConfigurableApplicationContext context = startWithoutDatabase("idempotency.enabled=false",
				"spring.autoconfigure.exclude="
				+ "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration,"
				+ "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration,"
				+ "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration")) {
			assertThat(context.isRunning()).isTrue();
		}
	}

	@Test
	void missingSchemaFailsTheStartWithWhatToDo(CapturedOutput output) {
		PostgresTestDatabase empty = PostgresTestDatabase.create("noschema");
		assertThatException().isThrownBy(() -> start(postgres(empty, "idempotency.jdbc.initialize-schema=never")));
		assertThat(output).contains("APPLICATION FAILED TO START");
		assertThat(output).contains("idempotency_record");
	}

	@Test
	void aResponseColumnThatAnotherSchemaToolShortenedFailsTheStartWithWhatToDo(CapturedOutput output) {
		PostgresTestDatabase database = PostgresTestDatabase.create("shortened");
		DataSource dataSource = new SimpleDriverDataSource(new org.postgresql.Driver(), database.url(),
				database.username(), database.password());
		StarterColumns.asMigrated(dataSource);
		new JdbcTemplate(dataSource)
			.execute("ALTER TABLE idempotency_record ALTER COLUMN response_headers TYPE VARCHAR(255)");
		assertThatException().isThrownBy(() -> start(postgres(database, "spring.flyway.enabled=false")));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("idempotency_record.response_headers is varchar(255), not TEXT")
			.contains("ALTER TABLE idempotency_record ALTER COLUMN response_headers SET DATA TYPE TEXT;");
	}

	@Test
	void settingsOfAnOperationThatDoesNotExistAreWarnedAboutWithTheClosestName(CapturedOutput output) {
		PostgresTestDatabase database = PostgresTestDatabase.create("unknownop");
		try (ConfigurableApplicationContext context = start(
				postgres(database, "idempotency.operations.recipts.ttl=1h"))) {
			assertThat(output).contains("idempotency.operations.recipts").contains("'receipts'");
		}
	}

	private static String[] postgres(PostgresTestDatabase database, String... more) {
		String[] properties = new String[more.length + 4];
		properties[0] = "spring.datasource.url=" + database.url();
		properties[1] = "spring.datasource.username=" + database.username();
		properties[2] = "spring.datasource.password=" + database.password();
		properties[3] = "spring.flyway.locations=classpath:db/webtest";
		System.arraycopy(more, 0, properties, 4, more.length);
		return properties;
	}

	private static ConfigurableApplicationContext startWithoutDatabase(String... properties) {
		return new SpringApplicationBuilder(NoDatabaseApplication.class).properties("server.port=0")
			.properties(properties)
			.run();
	}

	private static ConfigurableApplicationContext start(String... properties) {
		return new SpringApplicationBuilder(SpringWaysApplication.class).properties("server.port=0")
			.properties(properties)
			.run();
	}

}
