package io.github.idempotency.jdbc;

import java.util.List;

import io.github.idempotency.jdbc.IdempotencyColumns.Shortfall;

/**
 * Thrown at start-up when the starter's tables exist but fall short of what its statements rely
 * on, such as a response column that another schema tool shortened.
 */
class IdempotencySchemaMismatchException extends IllegalStateException {

	private final DatabasePlatform platform;

	private final List<Shortfall> shortfalls;

	IdempotencySchemaMismatchException(DatabasePlatform platform, List<Shortfall> shortfalls) {
		super("The idempotency tables differ from the starter's schema: " + shortfalls);
		this.platform = platform;
		this.shortfalls = List.copyOf(shortfalls);
	}

	DatabasePlatform platform() {
		return this.platform;
	}

	List<Shortfall> shortfalls() {
		return this.shortfalls;
	}

}
