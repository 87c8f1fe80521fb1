package io.github.idempotency.core;

import java.util.UUID;

/**
 * The idempotency key and fencing token of the operation running on the current thread, for
 * business code that forwards them downstream or checks, before an effect that cannot be undone,
 * that it still holds its key.
 */
public final class IdempotencyContext {

	private static final ThreadLocal<IdempotencyContext> CURRENT = new ThreadLocal<>();

	private final Execution execution;

	private IdempotencyContext(Execution execution) {
		this.execution = execution;
	}

	/**
	 * Return the context of a running execution.
	 * @param execution the execution
	 * @return its context
	 */
	static IdempotencyContext of(Execution execution) {
		return new IdempotencyContext(execution);
	}

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
	 * Return the scoped key of the running operation.
	 * @return the key
	 */
	public IdempotencyKey key() {
		return this.execution.key();
	}

	/**
	 * Return the fencing token of this claim; a later claim of the same key has another one.
	 * @return the token
	 */
	public UUID fencingToken() {
		return this.execution.token();
	}

	/**
	 * Return a key that is unique across tenants and operations, suitable for a downstream
	 * service's own idempotency key.
	 * @return {@code tenant:operation:key}
	 */
	public String scopedKey() {
		IdempotencyKey key = key();
		return key.tenant() + ":" + key.operation() + ":" + key.key();
	}

	/**
	 * Make sure the operation still holds its key before an effect that cannot be undone: a
	 * LEASED operation whose lease its heartbeat could not renew in time (the store was slow or
	 * unreachable) may have been taken over by a retry that runs the operation again.
	 * @throws IdempotencyLeaseLostException if the lease is not confirmed for the next renewal
	 * period; the key is released when the operation ends with it
	 */
	public void checkLease() {
		if (!this.execution.leaseHeld()) {
			throw IdempotencyLeaseLostException.notRenewed(this.execution.policy().lease());
		}
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
