package io.github.idempotency.starter;

import java.time.Duration;
import java.util.UUID;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.util.ClassUtils;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application that already has tables of its own and no migrations of its own adds the
 * starter, and nothing else: it starts with all of Spring Boot's auto-configuration, without
 * {@code spring.flyway.baseline-on-migrate}, because the starter brings Flyway for its own
 * migrations only, never Boot's Flyway auto-configuration, which would migrate the application's
 * schema. This module's test classpath is the starter's, as an application gets it.
 */
class ExistingSchemaStartupTests {

	private static final String BOOT_FLYWAY_AUTO_CONFIGURATION = "org.springframework.boot.flyway.autoconfigure."
			+ "FlywayAutoConfiguration";

	@Test
	void theStartersClasspathHasFlywayButNotBootsFlywayAutoConfiguration() {
		assertThat(ClassUtils.isPresent("org.flywaydb.core.Flyway", null)).isTrue();
		assertThat(ClassUtils.isPresent(BOOT_FLYWAY_AUTO_CONFIGURATION, null)).isFalse();
	}

	@Test
	void anApplicationWithTablesOfItsOwnOnPostgresqlStartsAndGetsTheStartersTablesNextToThem() {
		PostgresTestDatabase database = PostgresTestDatabase.create("existingschema");
		DataSource dataSource = new SimpleDriverDataSource(new org.postgresql.Driver(), database.url(),
				database.username(), database.password());
		startsNextToTheApplicationsTable(dataSource, "spring.datasource.url=" + database.url(),
				"spring.datasource.username=" + database.username(),
				"spring.datasource.password=" + database.password());
	}

	@Test
	void anApplicationWithTablesOfItsOwnOnH2StartsAndGetsTheStartersTablesNextToThem() {
		String url = "jdbc:h2:mem:existing_" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
		DataSource dataSource = new SimpleDriverDataSource(new org.h2.Driver(), url, "sa", "");
		startsNextToTheApplicationsTable(dataSource, "spring.datasource.url=" + url,
				"spring.datasource.username=sa");
	}

	private void startsNextToTheApplicationsTable(DataSource dataSource, String... properties) {
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		jdbc.execute("CREATE TABLE customer (id BIGINT PRIMARY KEY, name VARCHAR(100) NOT NULL)");
		jdbc.update("INSERT INTO customer (id, name) VALUES (1, 'Ada')");
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(ExistingSchemaApplication.class)
			.web(WebApplicationType.NONE)
			.properties(properties)
			.run()) {
			assertThat(context.getBeanNamesForType(Flyway.class)).isEmpty();
			assertThat(context.getEnvironment().containsProperty("spring.flyway.baseline-on-migrate")).isFalse();
			IdempotencyKey key = new IdempotencyKey("tenant", "orders", "order-1");
			assertThat(context.getBean(IdempotencyStore.class)
				.claim(new ClaimRequest(key, "fp", Duration.ofSeconds(30), Duration.ofHours(1))))
				.isInstanceOf(ClaimResult.Claimed.class);
		}
		assertThat(jdbc.queryForObject("SELECT name FROM customer WHERE id = 1", String.class)).isEqualTo("Ada");
		assertThat(jdbc.queryForObject("SELECT count(*) FROM idempotency_record", Long.class)).isOne();
		assertThat(jdbc.queryForList("SELECT \"type\" FROM \"idempotency_schema_history\" ORDER BY \"installed_rank\"",
				String.class)).containsSubsequence("BASELINE", "SQL");
		assertThat(jdbc.queryForObject("SELECT count(*) FROM information_schema.tables "
				+ "WHERE LOWER(table_name) = 'flyway_schema_history'", Long.class)).isZero();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class ExistingSchemaApplication {

	}

}
