package io.github.idempotency.jdbc;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.PostgresTestDatabase;

/**
 * {@link IdempotencySchemaInitializer} on PostgreSQL, a new database per test.
 */
class PostgresIdempotencySchemaInitializerTests extends IdempotencySchemaInitializerTests {

	@Override
	protected DataSource createDatabase() {
		return TestDataSources.postgres(PostgresTestDatabase.create("schema"), 2);
	}

	@Override
	protected void dropDatabase(DataSource dataSource) {
		((HikariDataSource) dataSource).close();
	}

}
