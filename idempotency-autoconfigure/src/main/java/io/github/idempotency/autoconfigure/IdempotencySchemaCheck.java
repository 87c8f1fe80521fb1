package io.github.idempotency.autoconfigure;

import java.util.function.BooleanSupplier;

import javax.sql.DataSource;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.core.JdbcTemplate;

import io.github.idempotency.internal.jdbc.DatabasePlatform;

/**
 * Checks at start-up, once every migration has run, that the store's table exists, so that a
 * missing schema stops the start with what to do instead of failing every request.
 */
class IdempotencySchemaCheck implements SmartInitializingSingleton {

	private final DataSource dataSource;

	private final BooleanSupplier storeIsJdbc;

	private final DatabaseInitializationMode mode;

	IdempotencySchemaCheck(DataSource dataSource, BooleanSupplier storeIsJdbc, DatabaseInitializationMode mode) {
		this.dataSource = dataSource;
		this.storeIsJdbc = storeIsJdbc;
		this.mode = mode;
	}

	@Override
	public void afterSingletonsInstantiated() {
		if (!this.storeIsJdbc.getAsBoolean()) {
			return;
		}
		try {
			new JdbcTemplate(this.dataSource).queryForObject("SELECT COUNT(*) FROM idempotency_record WHERE 1 = 0",
					Long.class);
		}
		catch (BadSqlGrammarException ex) {
			throw new IdempotencySchemaMissingException(DatabasePlatform.of(this.dataSource), this.mode, ex);
		}
		catch (DataAccessException ex) {
			// The database is unreachable right now: requests answer 503 until it is back.
		}
	}

}
