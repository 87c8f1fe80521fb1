package io.github.idempotency.jdbc;

import javax.sql.DataSource;

import io.github.idempotency.test.TestDataSources;

/**
 * {@link IdempotencySchemaInitializer} on H2, a new in-memory database per test, each statement
 * on a connection of its own.
 */
class H2IdempotencySchemaInitializerTests extends IdempotencySchemaInitializerTests {

	@Override
	protected DataSource createDatabase() {
		return TestDataSources.h2();
	}

}
