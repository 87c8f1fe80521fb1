package io.github.idempotency.jdbc;

import org.springframework.boot.sql.init.DatabaseInitializationMode;

/**
 * Thrown at start-up when the starter is to create its tables but Flyway, which applies its
 * migrations, is not on the classpath.
 */
class IdempotencyFlywayMissingException extends IllegalStateException {

	private final DatabasePlatform platform;

	private final DatabaseInitializationMode mode;

	IdempotencyFlywayMissingException(DatabasePlatform platform, DatabaseInitializationMode mode) {
		super("Flyway is not on the classpath, so the idempotency tables cannot be created");
		this.platform = platform;
		this.mode = mode;
	}

	/**
	 * Return the database whose tables were to be created.
	 * @return the database
	 */
	public DatabasePlatform platform() {
		return this.platform;
	}

	/**
	 * Return the initialization mode that asked for them.
	 * @return the mode
	 */
	public DatabaseInitializationMode mode() {
		return this.mode;
	}

}
