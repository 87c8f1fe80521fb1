package io.github.idempotency.store.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.jdbc.core.JdbcTemplate;

import io.github.idempotency.core.IdempotencyKey;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.IdempotencyStoreContractTests;
import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.PostgresTestDatabase;

/**
 * {@link JdbcIdempotencyStore} on PostgreSQL, with the schema its migrations create.
 */
class PostgresJdbcIdempotencyStoreTests extends IdempotencyStoreContractTests {

	private static HikariDataSource dataSource;

	private static JdbcIdempotencyStore store;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDataSources.postgres(PostgresTestDatabase.create("storecontract"), 4);
		TestDataSources.migrate(dataSource);
		store = TestDataSources.store(dataSource);
	}

	@AfterAll
	static void closeDataSource() {
		dataSource.close();
	}

	@Override
	protected IdempotencyStore store() {
		return store;
	}

	@Override
	protected void expire(IdempotencyKey key) {
		RecordClock.expire(new JdbcTemplate(dataSource), key);
	}

	@Override
	protected void runOutLease(IdempotencyKey key) {
		RecordClock.runOutLease(new JdbcTemplate(dataSource), key);
	}

}
