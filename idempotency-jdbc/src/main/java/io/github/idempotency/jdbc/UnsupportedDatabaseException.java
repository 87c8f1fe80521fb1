package io.github.idempotency.jdbc;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when the JDBC store is to keep its records in a database it has no statements and
 * migrations for: one other than PostgreSQL, MariaDB 10.6 or later, and H2.
 */
class UnsupportedDatabaseException extends IllegalStateException {

	private final @Nullable String product;

	private final boolean mysqlDriverOnMariadb;

	UnsupportedDatabaseException(@Nullable String product) {
		super("The idempotency store supports PostgreSQL, MariaDB 10.6 or later and H2, not '" + product
				+ "'; define an IdempotencyStore bean of your own for other databases");
		this.product = product;
		this.mysqlDriverOnMariadb = false;
	}

	private UnsupportedDatabaseException(@Nullable String product, String message) {
		super(message);
		this.product = product;
		this.mysqlDriverOnMariadb = true;
	}

	/**
	 * Return the exception for a MariaDB server reached through MySQL's driver, which refuses the
	 * statements the store runs on MariaDB ({@code INSERT ... RETURNING}).
	 * @param version the server's version, as the driver reports it
	 * @return the exception
	 */
	static UnsupportedDatabaseException mysqlDriverOnMariadb(@Nullable String version) {
		return new UnsupportedDatabaseException(version, "The idempotency store reaches MariaDB through MariaDB's "
				+ "JDBC driver, not MySQL's, which refuses its INSERT ... RETURNING statements (server " + version + ")");
	}

	/**
	 * Return whether the database is MariaDB, reached through MySQL's driver.
	 * @return whether it is
	 */
	boolean mysqlDriverOnMariadb() {
		return this.mysqlDriverOnMariadb;
	}

	/**
	 * Return the database product, as its JDBC driver names it.
	 * @return the product name, such as {@code HSQL Database Engine}, or {@code null} if the
	 * driver names none
	 */
	public @Nullable String product() {
		return this.product;
	}

}
