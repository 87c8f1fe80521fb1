package io.github.idempotency.jdbc;

import java.util.List;
import java.util.function.BooleanSupplier;

import javax.sql.DataSource;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.core.JdbcTemplate;

import io.github.idempotency.jdbc.IdempotencyColumns.Shortfall;

/**
 * Checks at start-up, once every migration has run, that the store's tables exist with the
 * columns, types and lengths its statements rely on, so that a missing or altered schema stops
 * the start with what to do instead of failing requests, some after their operation ran.
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
		JdbcTemplate jdbc = new JdbcTemplate(this.dataSource);
		List<Shortfall> shortfalls;
		try {
			jdbc.queryForObject("SELECT COUNT(*) FROM idempotency_record WHERE 1 = 0", Long.class);
			shortfalls = IdempotencyColumns.shortfalls(jdbc, DatabasePlatform.of(this.dataSource));
		}
		catch (BadSqlGrammarException ex) {
			throw new IdempotencySchemaMissingException(DatabasePlatform.of(this.dataSource), this.mode, ex);
		}
		catch (DataAccessException ex) {
			// The database is unreachable right now: requests answer 503 until it is back.
			return;
		}
		if (!shortfalls.isEmpty()) {
			throw new IdempotencySchemaMismatchException(DatabasePlatform.of(this.dataSource), shortfalls);
		}
	}

}
