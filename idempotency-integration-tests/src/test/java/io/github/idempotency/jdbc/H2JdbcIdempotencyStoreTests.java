package io.github.idempotency.jdbc;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeAll;

import io.github.idempotency.test.TestDataSources;

/**
 * {@link JdbcIdempotencyStore} on H2, with the schema its migrations create.
 */
class H2JdbcIdempotencyStoreTests extends AbstractJdbcIdempotencyStoreTests {

	private static JdbcIdempotencyStore store;

	@BeforeAll
	static void createDatabase() {
		DataSource dataSource = TestDataSources.h2();
		TestDataSources.migrate(dataSource);
		store = TestDataSources.store(dataSource);
	}

	@Override
	protected JdbcIdempotencyStore store() {
		return store;
	}

}
