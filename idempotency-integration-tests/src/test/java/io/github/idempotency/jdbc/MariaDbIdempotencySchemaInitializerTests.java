package io.github.idempotency.jdbc;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.MariaDbTestDatabase;

/**
 * {@link IdempotencySchemaInitializer} on MariaDB, a new database per test.
 */
class MariaDbIdempotencySchemaInitializerTests extends IdempotencySchemaInitializerTests {

	@Override
	protected DataSource createDatabase() {
		return TestDataSources.mariadb(MariaDbTestDatabase.create("schema"), 2);
	}

	@Override
	protected void dropDatabase(DataSource dataSource) {
		((HikariDataSource) dataSource).close();
	}

	@Override
	protected String currentSchema() {
		return "DATABASE()";
	}

	@Override
	protected String quote(String identifier) {
		return "`" + identifier + "`";
	}

}
