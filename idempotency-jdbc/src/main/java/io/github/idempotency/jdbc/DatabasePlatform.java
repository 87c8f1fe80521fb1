package io.github.idempotency.jdbc;

import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;

/**
 * The databases the JDBC store and the schema migrations support.
 */
enum DatabasePlatform {

	/**
	 * PostgreSQL, the first-class production database.
	 */
	POSTGRESQL("postgresql", "org.flywaydb.database.postgresql.PostgreSQLDatabaseType",
			"org.flywaydb:flyway-database-postgresql"),

	/**
	 * MariaDB 10.6 or later, with InnoDB tables.
	 */
	MARIADB("mariadb", "org.flywaydb.database.mysql.mariadb.MariaDBDatabaseType", "org.flywaydb:flyway-mysql"),

	/**
	 * H2, the embedded default for development and samples.
	 */
	H2("h2", null, null);

	/**
	 * The oldest MariaDB the store runs on: the first with {@code SKIP LOCKED}.
	 */
	static final int[] MARIADB_MINIMUM = { 10, 6 };

	private final String id;

	private final @Nullable String flywayDatabaseType;

	private final @Nullable String flywayModule;

	DatabasePlatform(String id, @Nullable String flywayDatabaseType, @Nullable String flywayModule) {
		this.id = id;
		this.flywayDatabaseType = flywayDatabaseType;
		this.flywayModule = flywayModule;
	}

	/**
	 * Return the identifier used in migration locations.
	 * @return the identifier, such as {@code postgresql}
	 */
	public String id() {
		return this.id;
	}

	/**
	 * Return the script that creates the schema all the migrations create, for teams that apply
	 * it with their own tooling.
	 * @return the script's location, such as
	 * {@code classpath:io/github/idempotency/jdbc/schema-postgresql.sql}
	 */
	public String schemaScript() {
		return "classpath:io/github/idempotency/jdbc/schema-" + this.id + ".sql";
	}

	/**
	 * Return the Flyway module that supports this database, where Flyway's core does not.
	 * @return its coordinates, such as {@code org.flywaydb:flyway-mysql}, or {@code null}
	 */
	public @Nullable String flywayModule() {
		return this.flywayModule;
	}

	/**
	 * Return a class of the Flyway module that supports this database.
	 */
	@Nullable String flywayDatabaseType() {
		return this.flywayDatabaseType;
	}

	/**
	 * Determine the platform of a data source from its metadata.
	 * @param dataSource the data source
	 * @return the platform
	 * @throws UnsupportedDatabaseException if the database is not supported
	 * @throws IllegalStateException if the database cannot be determined
	 */
	public static DatabasePlatform of(DataSource dataSource) {
		Product product;
		try {
			product = JdbcUtils.extractDatabaseMetaData(dataSource, Product::of);
		}
		catch (MetaDataAccessException ex) {
			throw new IllegalStateException("Cannot determine the database of the idempotency store", ex);
		}
		return of(product);
	}

	static DatabasePlatform fromProductName(@Nullable String product) {
		return of(new Product(product, null, 0, 0));
	}

	/**
	 * MariaDB's driver names its product MariaDB, MySQL's driver names it MySQL on both servers;
	 * a MariaDB server's version says MariaDB whichever driver reads it, and MySQL's driver cannot
	 * run the statements of the MariaDB store.
	 */
	static DatabasePlatform of(Product product) {
		String name = lowerCase(product.name());
		if (name.contains("postgres")) {
			return POSTGRESQL;
		}
		if (name.equals("h2")) {
			return H2;
		}
		if (name.contains("mysql") && lowerCase(product.version()).contains("mariadb")) {
			throw UnsupportedDatabaseException.mysqlDriverOnMariadb(product.version());
		}
		if (name.contains("mariadb")) {
			if (product.major() < MARIADB_MINIMUM[0]
					|| (product.major() == MARIADB_MINIMUM[0] && product.minor() < MARIADB_MINIMUM[1])) {
				throw new UnsupportedDatabaseException(product.name() + " " + product.version());
			}
			return MARIADB;
		}
		throw new UnsupportedDatabaseException(product.name());
	}

	private static String lowerCase(@Nullable String text) {
		return (text != null) ? text.toLowerCase(Locale.ROOT) : "";
	}

	/**
	 * A database product as its JDBC driver describes it.
	 */
	record Product(@Nullable String name, @Nullable String version, int major, int minor) {

		static Product of(DatabaseMetaData metaData) throws SQLException {
			return new Product(metaData.getDatabaseProductName(), metaData.getDatabaseProductVersion(),
					metaData.getDatabaseMajorVersion(), metaData.getDatabaseMinorVersion());
		}

	}

}
