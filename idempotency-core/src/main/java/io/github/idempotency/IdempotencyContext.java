package io.github.idempotency;

import java.util.UUID;

import org.jspecify.annotations.Nullable;

/**
 * The idempotency key and fencing token of the operation running on the current thread, for
 * business code that forwards them downstream or checks, before an effect that cannot be undone,
 * that it still holds its key.
 */
public interface IdempotencyContext {

	/**
	 * Return the context of the idempotent operation running on this thread.
	 * @return the context, or {@code null} outside an idempotent operation
	 */
	static @Nullable IdempotencyContext current() {
		return IdempotencyContextHolder.get();
	}

	/**
	 * Return the context of the idempotent operation running on this thread.
	 * @return the context
	 * @throws IllegalStateException outside an idempotent operation
	 */
	static IdempotencyContext require() {
		IdempotencyContext context = IdempotencyContextHolder.get();
		if (context == null) {
			throw new IllegalStateException("No idempotent operation is running on this thread");
		}
		return context;
	}

	/**
	 * Make a context the current one until the returned scope is closed; the starter does this
	 * around every guarded call.
	 * @param context the context
	 * @return the scope to close, which restores the previous context
	 */
	static Scope open(IdempotencyContext context) {
		return IdempotencyContextHolder.open(context);
	}

	/**
	 * Return the scoped key of the running operation.
	 * @return the key
	 */
	IdempotencyKey key();

	/**
	 * Return the fencing token of this claim; a later claim of the same key has another one.
	 * @return the token
	 */
	UUID fencingToken();

	/**
	 * Return a key that is unique across tenants and operations, suitable for a downstream
	 * service's own idempotency key.
	 * @return {@code tenant:operation:key}
	 */
	default String scopedKey() {
		IdempotencyKey key = key();
		return key.tenant() + ":" + key.operation() + ":" + key.key();
	}

	/**
	 * Make sure the operation still holds its key before an effect that cannot be undone: a
	 * LEASED operation whose lease its heartbeat could not renew in time (the store was slow or
	 * unreachable) may be taken over by a retry that runs the operation again.
	 * @throws IdempotencyKeyInProgressException (a {@code 409 lease-lost} problem) if the lease
	 * is not confirmed for long enough; the key is released when the operation ends with it
	 */
	void checkLease();

	/**
	 * Attach a reference to the running operation's key, such as the transaction id a payment
	 * gateway answered, so that an operator can find the key by it and see it with the key (in
	 * the {@code idempotency} Actuator endpoint). It is written at once, in a write of its own
	 * outside the operation's transaction, so that it outlives a crash, a rollback or a transient
	 * failure after the effect it names; it is kept as long as the key's record, and archived with
	 * it for archived operations. Attaching the same name and value again changes nothing; one name
	 * may have several values, such as one per attempt.
	 * @param name the kind of reference: 1 to 64 characters {@code a-z}, {@code 0-9}, {@code _},
	 * {@code .} or {@code -}, such as {@code gateway_transaction}
	 * @param value the reference: 1 to 255 characters, none of them a control character
	 * @throws IllegalArgumentException if the name or the value is not valid
	 * @throws UnsupportedOperationException if the idempotency store keeps no references, which
	 * is the default of contexts that are not the starter's
	 */
	default void reference(String name, String value) {
		throw new UnsupportedOperationException("This idempotency context keeps no references");
	}

	/**
	 * A scope that restores the previous context when closed.
	 */
	@FunctionalInterface
	interface Scope extends AutoCloseable {

		@Override
		void close();

	}

}
