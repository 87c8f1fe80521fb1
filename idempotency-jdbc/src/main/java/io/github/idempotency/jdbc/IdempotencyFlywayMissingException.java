package io.github.idempotency.jdbc;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

/**
 * Thrown at start-up when the starter is to create its tables but Flyway, which applies its
 * migrations, or Flyway's module for the database is not on the classpath.
 */
class IdempotencyFlywayMissingException extends IllegalStateException {

	private final DatabasePlatform platform;

	private final DatabaseInitializationMode mode;

	private final @Nullable String missingModule;

	IdempotencyFlywayMissingException(DatabasePlatform platform, DatabaseInitializationMode mode) {
		this(platform, mode, null);
	}

	IdempotencyFlywayMissingException(DatabasePlatform platform, DatabaseInitializationMode mode,
			@Nullable String missingModule) {
		super(((missingModule != null) ? "Flyway's module for " + platform.id() + " (" + missingModule + ")"
				: "Flyway") + " is not on the classpath, so the idempotency tables cannot be created");
		this.platform = platform;
		this.mode = mode;
		this.missingModule = missingModule;
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

	/**
	 * Return the Flyway module for the database that is missing, where Flyway itself is there.
	 * @return its coordinates, such as {@code org.flywaydb:flyway-mysql}, or {@code null} when
	 * Flyway itself is missing
	 */
	public @Nullable String missingModule() {
		return this.missingModule;
	}

}
