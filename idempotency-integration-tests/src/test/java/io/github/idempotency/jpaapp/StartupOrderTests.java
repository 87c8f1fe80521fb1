package io.github.idempotency.jpaapp;

import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import io.github.idempotency.test.StarterColumns;
import io.github.idempotency.test.StarterMigrations;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the starter's migrations run among an application's own schema tools, all before the
 * first request: after the application's Flyway migrations; before its {@code spring.sql.init}
 * scripts, which may read the starter's tables; before Hibernate's {@code ddl-auto}, or after it
 * where the application defers its scripts until Hibernate has run.
 */
class StartupOrderTests {

	@ParameterizedTest(name = "spring.jpa.defer-datasource-initialization={0}")
	@ValueSource(booleans = { false, true })
	void sqlInitScriptsAndDdlAutoUpdateStartAroundTheStartersMigrationsAndTheScriptsReadItsTables(boolean defer) {
		String url = "jdbc:h2:mem:sqlinit_" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
		List<String> migrated = StarterColumns.asMigrated(new SimpleDriverDataSource(new org.h2.Driver(),
				"jdbc:h2:mem:sqlinit_reference_" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1",
				"sa", ""));
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(JpaApplication.class)
			.properties("server.port=0", "spring.datasource.url=" + url, "spring.flyway.enabled=false",
					"spring.jpa.hibernate.ddl-auto=update", "spring.sql.init.mode=always",
					"spring.sql.init.schema-locations=classpath:jpaapp/schema.sql",
					"spring.sql.init.data-locations=classpath:jpaapp/data.sql",
					"spring.jpa.defer-datasource-initialization=" + defer)
			.run()) {
			JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
			assertThat(jdbc.queryForList("SELECT note FROM memo_audit", String.class))
				.containsExactly("idempotency records at start: 0");
			assertThat(StarterColumns.of(context.getBean(DataSource.class))).containsExactlyElementsOf(migrated);
			MemoRequests.createdOnceAndReplayedByteForByte(context);
		}
	}

	@Test
	void onH2TheApplicationsFlywayMigrationsInTheDefaultLocationRunFirstAndDdlAutoValidatePasses() {
		String url = "jdbc:h2:mem:appflyway_" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
		startsAfterTheApplicationsFlywayMigrations("h2", "spring.datasource.url=" + url);
	}

	@Test
	void onPostgresqlTheApplicationsFlywayMigrationsInTheDefaultLocationRunFirstAndDdlAutoValidatePasses() {
		PostgresTestDatabase database = PostgresTestDatabase.create("appflyway");
		startsAfterTheApplicationsFlywayMigrations("postgresql",
				"spring.datasource.url=" + database.url(), "spring.datasource.username=" + database.username(),
				"spring.datasource.password=" + database.password());
	}

	private void startsAfterTheApplicationsFlywayMigrations(String platform, String... database) {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(JpaApplication.class)
			.properties("server.port=0", "spring.jpa.hibernate.ddl-auto=validate")
			.properties(database)
			.run()) {
			JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
			assertThat(jdbc.queryForList("SELECT \"type\" || ' ' || \"version\" FROM \"flyway_schema_history\" "
					+ "WHERE \"type\" IN ('SQL', 'BASELINE') ORDER BY \"installed_rank\"", String.class))
				.containsExactly("SQL 1");
			assertThat(jdbc.queryForList("SELECT \"type\" FROM \"idempotency_schema_history\" "
					+ "WHERE \"type\" IN ('SQL', 'BASELINE') ORDER BY \"installed_rank\"", String.class))
				.first()
				.isEqualTo("BASELINE");
			assertThat(jdbc.queryForList("SELECT \"version\" FROM \"idempotency_schema_history\" "
					+ "WHERE \"type\" = 'SQL' ORDER BY \"installed_rank\"", String.class))
				.containsExactlyElementsOf(StarterMigrations.versions(platform));
			MemoRequests.createdOnceAndReplayedByteForByte(context);
		}
	}

}
