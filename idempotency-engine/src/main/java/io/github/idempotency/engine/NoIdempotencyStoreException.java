package io.github.idempotency.engine;

/**
 * Thrown at start-up when {@code @Idempotent} methods would run unguarded because the
 * application has no store for idempotency records.
 */
class NoIdempotencyStoreException extends IllegalStateException {

	NoIdempotencyStoreException() {
		super("No IdempotencyStore: @Idempotent methods cannot be guarded");
	}

}
