package io.github.idempotency;

import org.jspecify.annotations.Nullable;

/**
 * Holds the {@link IdempotencyContext} of the current thread.
 */
final class IdempotencyContextHolder {

	private static final ThreadLocal<IdempotencyContext> CURRENT = new ThreadLocal<>();

	private IdempotencyContextHolder() {
	}

	static @Nullable IdempotencyContext get() {
		return CURRENT.get();
	}

	static IdempotencyContext.Scope open(IdempotencyContext context) {
		IdempotencyContext previous = CURRENT.get();
		CURRENT.set(context);
		return () -> {
			if (previous != null) {
				CURRENT.set(previous);
			}
			else {
				CURRENT.remove();
			}
		};
	}

}
