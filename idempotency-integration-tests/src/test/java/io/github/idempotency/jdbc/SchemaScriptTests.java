package io.github.idempotency.jdbc;

import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.MariaDbTestDatabase;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The schema scripts shipped for teams that apply the schema themselves create exactly what all
 * the starter's migrations create, read back from the database's catalog.
 */
class SchemaScriptTests {

	private static final String HISTORY = "idempotency_schema_history";

	@Test
	void thePostgresqlScriptCreatesTheTablesColumnsIndexesAndConstraintsTheMigrationsCreate() {
		try (HikariDataSource migrated = TestDataSources.postgres(PostgresTestDatabase.create("migrated"), 2);
				HikariDataSource scripted = TestDataSources.postgres(PostgresTestDatabase.create("scripted"), 2)) {
			TestDataSources.migrate(migrated);
			runScript(scripted, DatabasePlatform.POSTGRESQL);
			String columns = "SELECT table_name, column_name, ordinal_position, data_type, character_maximum_length, "
					+ "is_nullable, column_default, is_identity, identity_generation FROM information_schema.columns "
					+ "WHERE table_schema = 'public' AND table_name <> '" + HISTORY
					+ "' ORDER BY table_name, ordinal_position";
			String indexes = "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' "
					+ "AND tablename <> '" + HISTORY + "' ORDER BY tablename, indexname";
			String constraints = "SELECT conrelid::regclass::text AS table_name, conname, "
					+ "pg_get_constraintdef(oid) AS definition FROM pg_constraint "
					+ "WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text <> '" + HISTORY
					+ "' ORDER BY 1, 2";
			assertThat(rows(scripted, columns)).hasSize(50).isEqualTo(rows(migrated, columns));
			assertThat(rows(scripted, indexes)).hasSize(13).isEqualTo(rows(migrated, indexes));
			assertThat(rows(scripted, constraints)).hasSize(6).isEqualTo(rows(migrated, constraints));
		}
	}

	@Test
	void theMariadbScriptCreatesTheTablesColumnsIndexesAndConstraintsTheMigrationsCreate() {
		try (HikariDataSource migrated = TestDataSources.mariadb(MariaDbTestDatabase.create("migrated"), 2);
				HikariDataSource scripted = TestDataSources.mariadb(MariaDbTestDatabase.create("scripted"), 2)) {
			TestDataSources.migrate(migrated);
			runScript(scripted, DatabasePlatform.MARIADB);
			String columns = "SELECT table_name, column_name, ordinal_position, column_type, is_nullable, "
					+ "column_default, character_set_name, collation_name, extra FROM information_schema.columns "
					+ "WHERE table_schema = DATABASE() AND table_name <> '" + HISTORY
					+ "' ORDER BY table_name, ordinal_position";
			String indexes = "SELECT table_name, index_name, non_unique, seq_in_index, column_name, sub_part "
					+ "FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name <> '"
					+ HISTORY + "' ORDER BY table_name, index_name, seq_in_index";
			String checks = "SELECT table_name, constraint_name, check_clause FROM information_schema.check_constraints "
					+ "WHERE constraint_schema = DATABASE() ORDER BY 1, 2";
			String tables = "SELECT table_name, engine, row_format, table_collation FROM information_schema.tables "
					+ "WHERE table_schema = DATABASE() AND table_name <> '" + HISTORY + "' ORDER BY table_name";
			assertThat(rows(scripted, columns)).hasSize(51).isEqualTo(rows(migrated, columns));
			assertThat(rows(scripted, indexes)).hasSize(24).isEqualTo(rows(migrated, indexes));
			assertThat(rows(scripted, checks)).hasSize(1).isEqualTo(rows(migrated, checks));
			assertThat(rows(scripted, tables)).hasSize(5).isEqualTo(rows(migrated, tables));
		}
	}

	/**
	 * H2 names the indexes behind its keys after an internal counter, so indexes compare by their
	 * table, kind and columns.
	 */
	@Test
	void theH2ScriptCreatesTheTablesColumnsAndIndexesTheMigrationsCreate() {
		DataSource migrated = TestDataSources.h2();
		DataSource scripted = TestDataSources.h2();
		TestDataSources.migrate(migrated);
		runScript(scripted, DatabasePlatform.H2);
		String columns = "SELECT table_name, column_name, ordinal_position, data_type, character_maximum_length, "
				+ "is_nullable, is_identity FROM information_schema.columns WHERE table_schema = 'PUBLIC' "
				+ "AND table_name <> '" + HISTORY + "' ORDER BY table_name, ordinal_position";
		String indexes = "SELECT i.table_name, i.index_type_name, LISTAGG(c.column_name, ',') WITHIN GROUP "
				+ "(ORDER BY c.ordinal_position) AS columns FROM information_schema.indexes i "
				+ "JOIN information_schema.index_columns c ON c.index_schema = i.index_schema "
				+ "AND c.index_name = i.index_name WHERE i.table_schema = 'PUBLIC' AND i.table_name <> '" + HISTORY
				+ "' GROUP BY i.table_name, i.index_name, i.index_type_name ORDER BY 1, 2, 3";
		String checks = "SELECT check_clause FROM information_schema.check_constraints "
				+ "WHERE constraint_schema = 'PUBLIC' ORDER BY 1";
		assertThat(rows(scripted, columns)).hasSize(50).isEqualTo(rows(migrated, columns));
		assertThat(rows(scripted, indexes)).hasSize(13).isEqualTo(rows(migrated, indexes));
		assertThat(rows(scripted, checks)).hasSize(1).isEqualTo(rows(migrated, checks));
	}

	private static void runScript(DataSource dataSource, DatabasePlatform platform) {
		new ResourceDatabasePopulator(new DefaultResourceLoader().getResource(platform.schemaScript()))
			.execute(dataSource);
	}

	private static List<Map<String, Object>> rows(DataSource dataSource, String query) {
		return new JdbcTemplate(dataSource).queryForList(query);
	}

}
