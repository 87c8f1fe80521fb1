package io.github.idempotency.jdbc;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.util.ClassUtils;

/**
 * Creates and upgrades the starter's tables at start-up, as the initialization mode asks, with
 * the starter's own Flyway migrations; Spring Boot runs it after the application's own Flyway or
 * Liquibase migrations and before its {@code spring.sql.init} scripts and the beans that depend on
 * database initialization. On a database the starter has no migrations for, it creates nothing:
 * the records are then in a store of the application's own, or the JDBC store refuses to start.
 *
 * @see IdempotencySchemaInitializerDetector
 */
class IdempotencySchemaInitializer implements InitializingBean, BeanClassLoaderAware {

	private static final String FLYWAY = "org.flywaydb.core.Flyway";

	private static final Logger logger = LoggerFactory.getLogger(IdempotencySchemaInitializer.class);

	private final DataSource dataSource;

	private final DatabaseInitializationMode mode;

	private final String historyTable;

	private ClassLoader classLoader = IdempotencySchemaInitializer.class.getClassLoader();

	/**
	 * Create an initializer.
	 * @param dataSource the data source of the idempotency tables
	 * @param mode when to initialize: always, on an embedded database only, or never
	 * @param historyTable the Flyway history table of the starter's migrations
	 */
	public IdempotencySchemaInitializer(DataSource dataSource, DatabaseInitializationMode mode,
			String historyTable) {
		this.dataSource = dataSource;
		this.mode = mode;
		this.historyTable = historyTable;
	}

	@Override
	public void setBeanClassLoader(ClassLoader classLoader) {
		this.classLoader = classLoader;
	}

	@Override
	public void afterPropertiesSet() {
		if (!initializes()) {
			return;
		}
		DatabasePlatform platform;
		try {
			platform = DatabasePlatform.of(this.dataSource);
		}
		catch (UnsupportedDatabaseException ex) {
			logger.debug("No idempotency schema migrations for {}", ex.product());
			return;
		}
		if (!ClassUtils.isPresent(FLYWAY, this.classLoader)) {
			throw new IdempotencyFlywayMissingException(platform, this.mode);
		}
		String databaseType = platform.flywayDatabaseType();
		if (databaseType != null && !ClassUtils.isPresent(databaseType, this.classLoader)) {
			throw new IdempotencyFlywayMissingException(platform, this.mode, platform.flywayModule());
		}
		IdempotencyMigrations.migrate(this.dataSource, platform, this.historyTable);
	}

	private boolean initializes() {
		return switch (this.mode) {
			case ALWAYS -> true;
			case EMBEDDED -> EmbeddedDatabaseConnection.isEmbedded(this.dataSource);
			case NEVER -> false;
		};
	}

}
