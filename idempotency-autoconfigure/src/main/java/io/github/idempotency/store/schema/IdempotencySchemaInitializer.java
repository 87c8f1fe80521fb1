package io.github.idempotency.store.schema;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.InitializingBean;

import io.github.idempotency.store.jdbc.DatabasePlatform;

/**
 * Applies the starter's own Flyway migrations at start-up, from {@code db/idempotency/<database>}
 * into a history table of their own, so that they never clash with the application's migrations.
 */
public class IdempotencySchemaInitializer implements InitializingBean {

	/**
	 * Classpath folder holding one sub-folder of migrations per database.
	 */
	public static final String LOCATION_PREFIX = "classpath:db/idempotency/";

	private static final Logger logger = LoggerFactory.getLogger(IdempotencySchemaInitializer.class);

	private final DataSource dataSource;

	private final DatabasePlatform platform;

	private final String historyTable;

	public IdempotencySchemaInitializer(DataSource dataSource, DatabasePlatform platform, String historyTable) {
		this.dataSource = dataSource;
		this.platform = platform;
		this.historyTable = historyTable;
	}

	@Override
	public void afterPropertiesSet() {
		Flyway flyway = Flyway.configure(getClass().getClassLoader())
			.dataSource(this.dataSource)
			.locations(LOCATION_PREFIX + this.platform.id())
			.table(this.historyTable)
			.baselineOnMigrate(true)
			.baselineVersion("0")
			.load();
		MigrateResult result = flyway.migrate();
		if (result.migrationsExecuted > 0) {
			logger.info("Applied {} idempotency schema migration(s) to {}, now at version {}",
					result.migrationsExecuted, this.platform, result.targetSchemaVersion);
		}
	}

}
