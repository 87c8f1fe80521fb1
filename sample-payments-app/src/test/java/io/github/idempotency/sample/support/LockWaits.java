package io.github.idempotency.sample.support;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import static org.awaitility.Awaitility.await;

/**
 * Waits until a statement of the test database waits for a lock another connection holds.
 */
public final class LockWaits {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private LockWaits() {
	}

	/**
	 * Wait until at least one statement of the database waits for a lock.
	 * @param observer a connection to the database that holds no lock
	 */
	public static void awaitWaiter(Connection observer) {
		await().atMost(TIMEOUT).until(() -> waiting(observer) >= 1);
	}

	private static long waiting(Connection observer) throws SQLException {
		try (Statement statement = observer.createStatement();
				ResultSet rs = statement.executeQuery("SELECT count(*) FROM pg_stat_activity "
						+ "WHERE datname = current_database() AND wait_event_type = 'Lock'")) {
			rs.next();
			return rs.getLong(1);
		}
	}

}
