package io.github.idempotency.jdbc;

import javax.sql.DataSource;

import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.github.idempotency.store.IdempotencyRecordAdministration;
import io.github.idempotency.store.IdempotencyStore;

/**
 * What tests outside this package build from the JDBC store's package-private parts.
 */
public final class JdbcTestSupport {

	private JdbcTestSupport() {
	}

	/**
	 * Create the starter's tables as its migrations do.
	 * @param dataSource the database
	 * @param historyTable the Flyway history table of the starter
	 */
	public static void createSchema(DataSource dataSource, String historyTable) {
		new IdempotencySchemaInitializer(dataSource, DatabaseInitializationMode.ALWAYS, historyTable)
			.afterPropertiesSet();
	}

	/**
	 * Return a PostgreSQL store that never asks the database what it is, so that it can be built
	 * on a database that cannot be reached.
	 * @param dataSource the database
	 * @return the store
	 */
	public static IdempotencyStore postgresStore(DataSource dataSource) {
		return new JdbcIdempotencyStore(JdbcClient.create(dataSource), IdempotencyStatements.of(DatabasePlatform.POSTGRESQL));
	}

	/**
	 * Return the administration of PostgreSQL records, built without asking the database.
	 * @param dataSource the database
	 * @return the administration
	 */
	public static IdempotencyRecordAdministration postgresAdministration(DataSource dataSource) {
		return new JdbcIdempotencyRecordAdministration(JdbcClient.create(dataSource),
				IdempotencyStatements.of(DatabasePlatform.POSTGRESQL));
	}

}
