package io.github.idempotency.jdbc;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when the JDBC store is to keep its records in a database it has no statements and
 * migrations for: one other than PostgreSQL, MariaDB 10.6 or later, and H2.
 */
class UnsupportedDatabaseException extends IllegalStateException {

	private final @Nullable String product;

	UnsupportedDatabaseException(@Nullable String product) {
		super("The idempotency store supports PostgreSQL, MariaDB 10.6 or later and H2, not '" + product
				+ "'; define an IdempotencyStore bean of your own for other databases");
		this.product = product;
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
