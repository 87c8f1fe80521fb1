package io.github.idempotency.store;

/**
 * A store that writes through the application's {@code DataSource}, so that its writes can join a
 * transaction of the caller on that {@code DataSource}: what ATOMIC mode needs.
 */
public interface TransactionalIdempotencyStore extends IdempotencyStore {

}
