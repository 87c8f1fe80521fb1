package io.github.idempotency.store;

/**
 * A store that writes through the application's {@code DataSource}, so that its writes can join a
 * transaction of the caller on that {@code DataSource}: what ATOMIC mode needs.
 */
public interface TransactionalIdempotencyStore extends IdempotencyStore {

	/**
	 * Return whether this store's writes join the transactions of the application's
	 * {@code DataSource}. A store that writes to a database of its own (the JDBC store on an
	 * {@code @IdempotencyDataSource} that is not the application's) does not: its claims commit on
	 * their own, and ATOMIC operations are refused at start-up.
	 * @return whether the store joins the application's transactions
	 */
	default boolean joinsApplicationTransactions() {
		return true;
	}

}
