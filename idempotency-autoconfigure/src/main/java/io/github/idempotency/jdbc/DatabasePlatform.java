package io.github.idempotency.jdbc;

import java.sql.DatabaseMetaData;
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
	POSTGRESQL("postgresql"),

	/**
	 * H2, the embedded default for development and samples.
	 */
	H2("h2");

	private final String id;

	DatabasePlatform(String id) {
		this.id = id;
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
	 * Determine the platform of a data source from its metadata.
	 * @param dataSource the data source
	 * @return the platform
	 * @throws UnsupportedDatabaseException if the database is not supported
	 * @throws IllegalStateException if the database cannot be determined
	 */
	public static DatabasePlatform of(DataSource dataSource) {
		String product;
		try {
			product = JdbcUtils.extractDatabaseMetaData(dataSource, DatabaseMetaData::getDatabaseProductName);
		}
		catch (MetaDataAccessException ex) {
			throw new IllegalStateException("Cannot determine the database of the idempotency store", ex);
		}
		return fromProductName(product);
	}

	static DatabasePlatform fromProductName(@Nullable String product) {
		String name = (product != null) ? product.toLowerCase(Locale.ROOT) : "";
		if (name.contains("postgres")) {
			return POSTGRESQL;
		}
		if (name.equals("h2")) {
			return H2;
		}
		throw new UnsupportedDatabaseException(product);
	}

}
