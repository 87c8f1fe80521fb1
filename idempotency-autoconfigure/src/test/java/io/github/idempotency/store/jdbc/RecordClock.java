package io.github.idempotency.store.jdbc;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import org.springframework.jdbc.core.JdbcOperations;

import io.github.idempotency.core.IdempotencyKey;

/**
 * Moves the times of a stored record into the past with SQL, so that tests of expiry and lease
 * take-over never wait.
 */
final class RecordClock {

	private static final OffsetDateTime PAST = OffsetDateTime.of(2000, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);

	private static final String KEY_MATCH = " WHERE tenant_id = ? AND operation = ? AND idempotency_key = ?";

	private RecordClock() {
	}

	static void expire(JdbcOperations jdbc, IdempotencyKey key) {
		update(jdbc, "UPDATE idempotency_record SET expires_at = ?" + KEY_MATCH, key);
	}

	static void runOutLease(JdbcOperations jdbc, IdempotencyKey key) {
		update(jdbc, "UPDATE idempotency_record SET locked_until = ?" + KEY_MATCH, key);
	}

	private static void update(JdbcOperations jdbc, String sql, IdempotencyKey key) {
		int rows = jdbc.update(sql, PAST, key.tenant(), key.operation(), key.key());
		if (rows != 1) {
			throw new IllegalStateException("Expected one record for " + key + " but updated " + rows);
		}
	}

}
