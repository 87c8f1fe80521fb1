package io.github.idempotency.jdbc;

import org.springframework.boot.sql.init.DatabaseInitializationMode;


/**
 * Thrown at start-up when the database has no {@code idempotency_record} table.
 */
class IdempotencySchemaMissingException extends IllegalStateException {

	private final DatabasePlatform platform;

	private final DatabaseInitializationMode mode;

	IdempotencySchemaMissingException(DatabasePlatform platform, DatabaseInitializationMode mode, Throwable cause) {
		super("The table idempotency_record does not exist", cause);
		this.platform = platform;
		this.mode = mode;
	}

	DatabasePlatform platform() {
		return this.platform;
	}

	DatabaseInitializationMode mode() {
		return this.mode;
	}

}
