package io.github.idempotency.jdbc;

import java.sql.SQLException;
import java.util.Set;

import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.PessimisticLockingFailureException;

/**
 * Tells a statement that the database gave up waiting for a row lock (PostgreSQL's
 * {@code lock_timeout}, MariaDB's and MySQL's {@code innodb_lock_wait_timeout}, H2's lock
 * timeout), which Spring leaves uncategorized on some databases, so that a claim blocked by an
 * uncommitted claim of its key is reported as a lock conflict, not as a store failure.
 */
final class LockTimeouts {

	private static final Set<String> SQL_STATES = Set.of("55P03", "HYT00", "40001");

	private static final Set<Integer> ERROR_CODES = Set.of(1205, 50200);

	private LockTimeouts() {
	}

	/**
	 * Return the failure as a lock conflict if it is a lock timeout, else as it is.
	 * @param failure what a statement threw
	 * @return the failure to throw
	 */
	static DataAccessException translate(DataAccessException failure) {
		if (failure instanceof PessimisticLockingFailureException) {
			return failure;
		}
		for (Throwable cause = failure.getCause(); cause != null; cause = cause.getCause()) {
			if (cause instanceof SQLException sql && isLockTimeout(sql)) {
				return new CannotAcquireLockException(failure.getMessage(), sql);
			}
		}
		return failure;
	}

	private static boolean isLockTimeout(SQLException failure) {
		// Set.of(...).contains(null) throws: a failed connection often has no SQL state.
		String state = failure.getSQLState();
		return (state != null && SQL_STATES.contains(state)) || ERROR_CODES.contains(failure.getErrorCode());
	}

}
