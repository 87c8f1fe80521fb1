package io.github.idempotency.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.MariaDbTestDatabase;

/**
 * {@link JdbcIdempotencyStore} on MariaDB as the starter configures it, its claims written in
 * batches, held to the published contract: the racing threads of its concurrency tests and fuzz
 * claim together, so their claims share statements.
 */
class MariaDbBatchedClaimsStoreTests extends AbstractJdbcIdempotencyStoreTests {

	private static HikariDataSource dataSource;

	private static JdbcIdempotencyStore store;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDataSources.mariadb(MariaDbTestDatabase.create("batchcontract"), 18);
		TestDataSources.migrate(dataSource);
		store = new JdbcIdempotencyStore(StatementCachingJdbcTemplate.client(dataSource),
				IdempotencyStatements.of(dataSource), 32);
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
