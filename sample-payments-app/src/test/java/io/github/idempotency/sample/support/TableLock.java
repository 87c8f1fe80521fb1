package io.github.idempotency.sample.support;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import io.github.idempotency.testsupport.PostgresTestDatabase;

/**
 * Holds a PostgreSQL table lock in a transaction of its own, so that a request that writes the
 * table waits inside its work until the lock is released, while reads go on.
 */
public final class TableLock implements AutoCloseable {

	private final Connection lock;

	private final Connection observer;

	private TableLock(Connection lock, Connection observer) {
		this.lock = lock;
		this.observer = observer;
	}

	/**
	 * Lock a table in {@code EXCLUSIVE} mode: reads go on, writes wait.
	 * @param database the database
	 * @param table the table
	 * @return the lock, released when closed
	 * @throws SQLException if the lock cannot be taken
	 */
	public static TableLock exclusive(PostgresTestDatabase database, String table) throws SQLException {
		Connection lock = database.connect();
		lock.setAutoCommit(false);
		try (Statement statement = lock.createStatement()) {
			statement.execute("LOCK TABLE " + table + " IN EXCLUSIVE MODE");
		}
		return new TableLock(lock, database.connect());
	}

	/**
	 * Wait until at least one statement of the database waits for a lock, such as this one.
	 */
	public void awaitWaiter() {
		LockWaits.awaitWaiter(this.observer);
	}

	/**
	 * Release the lock.
	 */
	@Override
	public void close() throws SQLException {
		try (Connection lock = this.lock; Connection observer = this.observer) {
			lock.rollback();
		}
	}

}
