package io.github.idempotency.jdbc;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import org.assertj.core.groups.Tuple;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.JdbcTemplate;

import io.github.idempotency.test.StarterMigrations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;

/**
 * How {@link IdempotencySchemaInitializer} applies the starter's migrations to a database, alone
 * and next to an application's own Flyway migrations in the same schema.
 */
abstract class IdempotencySchemaInitializerTests {

	private static final String HISTORY = "idempotency_schema_history";

	private static final String APP_HISTORY = "flyway_schema_history";

	private DataSource dataSource;

	private JdbcTemplate jdbc;

	/**
	 * Return a data source on a new, empty database.
	 * @return the data source
	 */
	protected abstract DataSource createDatabase();

	/**
	 * Release what {@link #createDatabase()} created.
	 * @param dataSource the data source
	 */
	protected void dropDatabase(DataSource dataSource) {
	}

	/**
	 * Return an SQL expression of the schema that the data source's connections use.
	 * @return the expression
	 */
	protected String currentSchema() {
		return "CURRENT_SCHEMA";
	}

	/**
	 * Quote an identifier as the database does.
	 * @param identifier the identifier
	 * @return it quoted
	 */
	protected String quote(String identifier) {
		return "\"" + identifier + "\"";
	}

	@BeforeEach
	void setUp() {
		this.dataSource = createDatabase();
		this.jdbc = new JdbcTemplate(this.dataSource);
	}

	@AfterEach
	void tearDown() {
		dropDatabase(this.dataSource);
	}

	@Test
	void appliesTheMigrationsOfTheDatabaseIntoTheirOwnHistoryTable() {
		migrateStarter();
		assertThat(tableExists("idempotency_record")).isTrue();
		assertThat(tableExists("idempotency_record_archive")).isTrue();
		assertThat(history(HISTORY)).containsExactlyElementsOf(starterMigrations());
		assertThat(tableExists(APP_HISTORY)).isFalse();
	}

	@Test
	void usesTheConfiguredHistoryTable() {
		new IdempotencySchemaInitializer(this.dataSource, DatabaseInitializationMode.ALWAYS, "custom_history")
			.afterPropertiesSet();
		assertThat(history("custom_history")).containsExactlyElementsOf(starterMigrations());
		assertThat(tableExists(HISTORY)).isFalse();
	}

	@Test
	void restartAppliesNothingAgainAndKeepsTheRecords() {
		migrateStarter();
		insertRecord("kept", "COMPLETED");
		migrateStarter();
		migrateStarter();
		assertThat(history(HISTORY)).containsExactlyElementsOf(starterMigrations());
		assertThat(this.jdbc.queryForObject("SELECT count(*) FROM idempotency_record", Long.class)).isEqualTo(1);
	}

	@Test
	void runsNextToTheApplicationsMigrationsAppliedBefore() {
		migrateApplication();
		migrateStarter();
		assertThat(history(APP_HISTORY)).containsExactly(tuple("1", true), tuple("2", true));
		assertThat(history(HISTORY)).containsExactlyElementsOf(starterMigrations());
		assertThat(tableExists("app_order")).isTrue();
		assertThat(tableExists("idempotency_record")).isTrue();
		migrateApplication();
		migrateStarter();
		assertThat(history(APP_HISTORY)).containsExactly(tuple("1", true), tuple("2", true));
		assertThat(history(HISTORY)).containsExactlyElementsOf(starterMigrations());
	}

	/**
	 * An application that adds Flyway after the starter created its tables finds a schema that
	 * is not empty, so its Flyway must baseline below its first migration, as the starter does.
	 */
	@Test
	void applicationMigrationsAddedLaterRunNextToTheStartersWithABaselineAtVersionZero() {
		migrateStarter();
		insertRecord("kept", "COMPLETED");
		migrateApplicationWithBaselineAtZero();
		assertThat(history(APP_HISTORY)).containsExactly(tuple("1", true), tuple("2", true));
		assertThat(history(HISTORY)).containsExactlyElementsOf(starterMigrations());
		this.jdbc.update("INSERT INTO app_order (id, total, note) VALUES (1, 9.99, 'both schemas')");
		migrateStarter();
		migrateApplicationWithBaselineAtZero();
		assertThat(history(APP_HISTORY)).containsExactly(tuple("1", true), tuple("2", true));
		assertThat(history(HISTORY)).containsExactlyElementsOf(starterMigrations());
		assertThat(this.jdbc.queryForObject("SELECT count(*) FROM idempotency_record", Long.class)).isEqualTo(1);
		assertThat(this.jdbc.queryForObject("SELECT count(*) FROM app_order", Long.class)).isEqualTo(1);
	}

	@Test
	void statusIsConstrainedToTheKnownValuesOnEveryConnection() {
		migrateStarter();
		insertRecord("in-progress", "IN_PROGRESS");
		insertRecord("completed", "COMPLETED");
		assertThatExceptionOfType(DataIntegrityViolationException.class)
			.isThrownBy(() -> insertRecord("unknown", "DONE"));
		assertThat(this.jdbc.queryForList("SELECT status FROM idempotency_record ORDER BY status", String.class))
			.containsExactly("COMPLETED", "IN_PROGRESS");
	}

	@Test
	void keyIsUniquePerTenantAndOperation() {
		migrateStarter();
		insertRecord("same", "IN_PROGRESS");
		assertThatExceptionOfType(DataIntegrityViolationException.class)
			.isThrownBy(() -> insertRecord("same", "COMPLETED"));
	}

	/**
	 * Return every migration the starter ships for the database, each applied successfully.
	 */
	private List<Tuple> starterMigrations() {
		List<String> versions = StarterMigrations.versions(DatabasePlatform.of(this.dataSource).id());
		assertThat(versions).contains("1");
		return versions.stream().map((version) -> tuple(version, true)).toList();
	}

	protected void migrateStarter() {
		new IdempotencySchemaInitializer(this.dataSource, DatabaseInitializationMode.ALWAYS, HISTORY)
			.afterPropertiesSet();
	}

	/**
	 * Migrate as Spring Boot's Flyway auto-configuration does with its defaults.
	 */
	protected void migrateApplication() {
		Flyway.configure().dataSource(this.dataSource).locations("classpath:db/schematest/app").load().migrate();
	}

	private void migrateApplicationWithBaselineAtZero() {
		Flyway.configure()
			.dataSource(this.dataSource)
			.locations("classpath:db/schematest/app")
			.baselineOnMigrate(true)
			.baselineVersion("0")
			.load()
			.migrate();
	}

	private void insertRecord(String key, String status) {
		Timestamp now = Timestamp.from(Instant.now());
		this.jdbc.update("INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, status, "
				+ "request_fingerprint, fencing_token, created_at, expires_at) VALUES ('t', 'op', ?, ?, 'fp', ?, ?, ?)",
				key, status, UUID.randomUUID(), now, now);
	}

	private boolean tableExists(String name) {
		return this.jdbc.queryForObject("SELECT count(*) FROM information_schema.tables WHERE LOWER(table_name) = ? "
				+ "AND table_schema = " + currentSchema(), Long.class, name) > 0;
	}

	/**
	 * Return the versioned migrations recorded in a history table, leaving out Flyway's own
	 * baseline and schema markers.
	 */
	private List<Tuple> history(String table) {
		return this.jdbc
			.queryForList("SELECT " + quote("version") + ", " + quote("success") + " FROM " + quote(table) + " WHERE "
					+ quote("type") + " = 'SQL' ORDER BY " + quote("installed_rank"))
			.stream()
			.map((Map<String, Object> row) -> tuple(row.get("version"), row.get("success")))
			.toList();
	}

}
