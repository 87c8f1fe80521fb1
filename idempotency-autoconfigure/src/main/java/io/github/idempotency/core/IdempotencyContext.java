package io.github.idempotency.core;

import java.util.UUID;

/**
 * The idempotency key and fencing token of the operation running on the current thread, for
 * business code that forwards them downstream.
 *
 * @param key the scoped key
 * @param fencingToken the token of this claim; a later claim of the same key has another one
 */
public record IdempotencyContext(IdempotencyKey key, UUID fencingToken) {

	private static final ThreadLocal<IdempotencyContext> CURRENT = new ThreadLocal<>();

	/**
	 * Return the context of the idempotent operation running on this thread.
	 * @return the context, or {@code null} outside an idempotent operation
	 */
	public static IdempotencyContext current() {
		return CURRENT.get();
	}

	/**
	 * Return the context of the idempotent operation running on this thread.
	 * @return the context
	 * @throws IllegalStateException outside an idempotent operation
	 */
	public static IdempotencyContext require() {
		IdempotencyContext context = CURRENT.get();
		if (context == null) {
			throw new IllegalStateException("No idempotent operation is running on this thread");
		}
		return context;
	}

	/**
	 * Return a key that is unique across tenants and operations, suitable for a downstream
	 * service's own idempotency key.
	 * @return {@code tenant:operation:key}
	 */
	public String scopedKey() {
		return this.key.tenant() + ":" + this.key.operation() + ":" + this.key.key();
	}

	/**
	 * Make this the current context until the returned scope is closed.
	 * @return the scope to close
	 */
	public Scope open() {
		IdempotencyContext previous = CURRENT.get();
		CURRENT.set(this);
		return () -> {
			if (previous != null) {
				CURRENT.set(previous);
			}
			else {
				CURRENT.remove();
			}
		};
	}

	/**
	 * A scope that restores the previous context when closed.
	 */
	@FunctionalInterface
	public interface Scope extends AutoCloseable {

		@Override
		void close();

	}

}
