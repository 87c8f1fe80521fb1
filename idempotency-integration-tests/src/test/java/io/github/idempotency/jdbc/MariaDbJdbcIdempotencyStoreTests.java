package io.github.idempotency.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.MariaDbTestDatabase;

/**
 * {@link JdbcIdempotencyStore} on MariaDB, with the schema its migrations create: the published
 * contract, every capability and the concurrency fuzz included; the pool gives every racing
 * thread of the contract a connection of its own.
 */
class MariaDbJdbcIdempotencyStoreTests extends AbstractJdbcIdempotencyStoreTests {

	private static HikariDataSource dataSource;

	private static JdbcIdempotencyStore store;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDataSources.mariadb(MariaDbTestDatabase.create("storecontract"), 18);
		TestDataSources.migrate(dataSource);
		store = TestDataSources.store(dataSource);
	}

	@AfterAll
	static void closeDataSource() {
		dataSource.close();
	}

	@Override
	protected JdbcIdempotencyStore store() {
		return store;
	}

}
