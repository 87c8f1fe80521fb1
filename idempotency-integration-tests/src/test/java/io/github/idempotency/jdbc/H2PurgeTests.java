package io.github.idempotency.jdbc;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeAll;

import io.github.idempotency.test.TestDataSources;

/**
 * The purge on H2, which locks a batch of keys and then archives and deletes them by key.
 */
class H2PurgeTests extends PurgeContractTests {

	private static DataSource dataSource;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDataSources.h2();
		TestDataSources.migrate(dataSource);
	}

	@Override
	protected DataSource dataSource() {
		return dataSource;
	}

}
