package io.github.idempotency.test;

import io.github.idempotency.jdbc.JdbcTestSupport;
import java.util.UUID;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import io.github.idempotency.jdbc.JdbcIdempotencyStore;
import io.github.idempotency.testsupport.MariaDbTestDatabase;
import io.github.idempotency.testsupport.PostgresTestDatabase;

/**
 * Data sources, schema and stores for tests that talk to a real database.
 */
public final class TestDataSources {

	/**
	 * The history table of the starter's migrations by default.
	 */
	public static final String HISTORY_TABLE = "idempotency_schema_history";

	private TestDataSources() {
	}

	/**
	 * Return a connection pool on a PostgreSQL test database, which opens connections only as
	 * they are needed.
	 * @param database the database
	 * @param size the largest number of connections
	 * @return the pool, to be closed by the caller
	 */
	public static HikariDataSource postgres(PostgresTestDatabase database, int size) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(database.url());
		config.setUsername(database.username());
		config.setPassword(database.password());
		config.setMaximumPoolSize(size);
		config.setMinimumIdle(0);
		config.setPoolName("test-" + database.name());
		return new HikariDataSource(config);
	}

	/**
	 * Return a connection pool on a MariaDB test database, which opens connections only as they
	 * are needed.
	 * @param database the database
	 * @param size the largest number of connections
	 * @return the pool, to be closed by the caller
	 */
	public static HikariDataSource mariadb(MariaDbTestDatabase database, int size) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(database.url());
		config.setUsername(database.username());
		config.setPassword(database.password());
		config.setMaximumPoolSize(size);
		config.setMinimumIdle(0);
		config.setPoolName("test-" + database.name());
		return new HikariDataSource(config);
	}

	/**
	 * Return a data source on a new, empty in-memory H2 database that lives until the JVM exits.
	 * @return the data source
	 */
	public static DataSource h2() {
		return h2("test_" + UUID.randomUUID().toString().replace("-", ""));
	}

	/**
	 * Return a data source on a named in-memory H2 database that lives until the JVM exits.
	 * @param name the database name
	 * @return the data source
	 */
	public static DataSource h2(String name) {
		return new SimpleDriverDataSource(new org.h2.Driver(), "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1", "sa",
				"");
	}

	/**
	 * Apply the starter's migrations as the auto-configuration does.
	 * @param dataSource the data source
	 */
	public static void migrate(DataSource dataSource) {
		JdbcTestSupport.createSchema(dataSource, HISTORY_TABLE);
	}

	/**
	 * Return a JDBC store on a data source whose schema has been migrated.
	 * @param dataSource the data source
	 * @return the store
	 */
	public static JdbcIdempotencyStore store(DataSource dataSource) {
		return new JdbcIdempotencyStore(dataSource);
	}

}
