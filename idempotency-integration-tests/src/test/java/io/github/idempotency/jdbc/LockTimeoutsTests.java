package io.github.idempotency.jdbc;

import java.sql.SQLException;

import org.junit.jupiter.api.Test;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.UncategorizedSQLException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LockTimeouts}.
 */
class LockTimeoutsTests {

	@Test
	void aFailureWithoutAnSqlStateIsLeftAsItIs() {
		DataAccessException failure = new DataAccessResourceFailureException("connection closed",
				new SQLException("This connection has been closed."));
		assertThat(LockTimeouts.translate(failure)).isSameAs(failure);
	}

	@Test
	void postgresqlsLockTimeoutIsALockConflict() {
		DataAccessException failure = new UncategorizedSQLException("claim", "INSERT",
				new SQLException("canceling statement due to lock timeout", "55P03"));
		assertThat(LockTimeouts.translate(failure)).isInstanceOf(CannotAcquireLockException.class);
	}

	@Test
	void innodbsLockWaitTimeoutIsALockConflict() {
		DataAccessException failure = new UncategorizedSQLException("claim", "INSERT",
				new SQLException("Lock wait timeout exceeded", "HY000", 1205));
		assertThat(LockTimeouts.translate(failure)).isInstanceOf(CannotAcquireLockException.class);
	}

}
