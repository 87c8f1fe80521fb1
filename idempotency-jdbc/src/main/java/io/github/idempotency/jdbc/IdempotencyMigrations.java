package io.github.idempotency.jdbc;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The starter's versioned Flyway migrations, from {@code db/idempotency/<database>} into a history
 * table of their own, so that they never clash with the application's migrations. Only this class
 * uses Flyway, so that the rest of the starter loads without it.
 */
final class IdempotencyMigrations {

	/**
	 * Classpath folder holding one sub-folder of migrations per database.
	 */
	static final String LOCATION_PREFIX = "classpath:db/idempotency/";

	private static final Logger logger = LoggerFactory.getLogger(IdempotencyMigrations.class);

	private IdempotencyMigrations() {
	}

	/**
	 * Apply the migrations that have not run yet. On a database that is not empty and has no
	 * history table yet, such as one with the application's tables, the history starts below the
	 * first migration.
	 * @param dataSource the data source
	 * @param platform its database
	 * @param historyTable the history table of the starter's migrations
	 */
	static void migrate(DataSource dataSource, DatabasePlatform platform, String historyTable) {
		Flyway flyway = Flyway.configure(IdempotencyMigrations.class.getClassLoader())
			.dataSource(dataSource)
			.locations(LOCATION_PREFIX + platform.id())
			.table(historyTable)
			.baselineOnMigrate(true)
			.baselineVersion("0")
			.load();
		MigrateResult result = flyway.migrate();
		if (result.migrationsExecuted > 0) {
			logger.info("Applied {} idempotency schema migration(s) to {}, now at version {}",
					result.migrationsExecuted, platform, result.targetSchemaVersion);
		}
	}

}
