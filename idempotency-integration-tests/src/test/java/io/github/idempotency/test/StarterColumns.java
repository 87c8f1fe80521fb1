package io.github.idempotency.test;

import io.github.idempotency.jdbc.JdbcTestSupport;
import java.util.List;

import javax.sql.DataSource;

import org.springframework.jdbc.core.JdbcTemplate;


/**
 * The columns of the starter's tables as the database describes them, to compare a database an
 * application ran on with one that only the starter's migrations made.
 */
public final class StarterColumns {

	private static final String COLUMNS = """
			SELECT LOWER(table_name) || '.' || LOWER(column_name) || ' ' || LOWER(data_type) || ' '
			  || COALESCE(CAST(character_maximum_length AS VARCHAR(20)), '-') || ' nullable=' || is_nullable
			  || ' default=' || COALESCE(column_default, '-')
			FROM information_schema.columns
			WHERE table_schema = CURRENT_SCHEMA AND LOWER(table_name) IN ('idempotency_record',
			  'idempotency_record_archive', 'idempotency_sequence', 'idempotency_reference',
			  'idempotency_reference_archive')
			ORDER BY LOWER(table_name), ordinal_position
			""";

	private StarterColumns() {
	}

	/**
	 * Describe the columns of the starter's tables, one line each: table, column, type, length,
	 * nullability and default.
	 * @param dataSource the database
	 * @return the columns, in table and column order
	 */
	public static List<String> of(DataSource dataSource) {
		return new JdbcTemplate(dataSource).queryForList(COLUMNS, String.class);
	}

	/**
	 * Describe the columns that the starter's migrations alone create.
	 * @param empty an empty database of the platform to describe
	 * @return the columns, in table and column order
	 */
	public static List<String> asMigrated(DataSource empty) {
		JdbcTestSupport.createSchema(empty, "idempotency_schema_history");
		return of(empty);
	}

}
