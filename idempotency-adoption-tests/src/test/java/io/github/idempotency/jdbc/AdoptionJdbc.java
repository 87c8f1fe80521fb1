package io.github.idempotency.jdbc;

import java.util.List;

import javax.sql.DataSource;

import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What the adoption tests read of the JDBC store's package-private parts: its schema and its
 * start-up column check.
 */
public final class AdoptionJdbc {

	private AdoptionJdbc() {
	}

	public static void createSchema(DataSource dataSource) {
		new IdempotencySchemaInitializer(dataSource, DatabaseInitializationMode.ALWAYS, "idempotency_schema_history")
			.afterPropertiesSet();
	}

	public static List<String> columnShortfalls(JdbcTemplate jdbc, DataSource dataSource) {
		return IdempotencyColumns.shortfalls(jdbc, DatabasePlatform.of(dataSource)).stream().map(Object::toString).toList();
	}

}
