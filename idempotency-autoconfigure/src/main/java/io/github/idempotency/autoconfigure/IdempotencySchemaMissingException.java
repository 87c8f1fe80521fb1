package io.github.idempotency.autoconfigure;

/**
 * Thrown at start-up when the database has no {@code idempotency_record} table.
 */
class IdempotencySchemaMissingException extends IllegalStateException {

	private final String platform;

	private final boolean migrationsEnabled;

	IdempotencySchemaMissingException(String platform, boolean migrationsEnabled, Throwable cause) {
		super("The table idempotency_record does not exist", cause);
		this.platform = platform;
		this.migrationsEnabled = migrationsEnabled;
	}

	String platform() {
		return this.platform;
	}

	boolean migrationsEnabled() {
		return this.migrationsEnabled;
	}

}
