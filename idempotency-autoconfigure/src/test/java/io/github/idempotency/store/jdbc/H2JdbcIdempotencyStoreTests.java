package io.github.idempotency.store.jdbc;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeAll;
import org.springframework.jdbc.core.JdbcTemplate;

import io.github.idempotency.core.IdempotencyKey;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.IdempotencyStoreContractTests;
import io.github.idempotency.test.TestDataSources;

/**
 * {@link JdbcIdempotencyStore} on H2, with the schema its migrations create.
 */
class H2JdbcIdempotencyStoreTests extends IdempotencyStoreContractTests {

	private static DataSource dataSource;

	private static JdbcIdempotencyStore store;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDataSources.h2();
		TestDataSources.migrate(dataSource);
		store = TestDataSources.store(dataSource);
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
