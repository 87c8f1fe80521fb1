package io.github.idempotency.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.SqlParameterValue;

/**
 * The statements on MariaDB 10.6 or later (InnoDB), on its {@code UTC_TIMESTAMP(6)}, which holds
 * for a whole statement: times are UTC to the microsecond in {@code DATETIME(6)} columns, whatever
 * the time zones of the session and the JVM. What MariaDB writes otherwise: the claim is an
 * {@code INSERT ... ON DUPLICATE KEY UPDATE ... RETURNING}, for many keys at once too, and the other upserts
 * {@code ON DUPLICATE KEY UPDATE}, and a batch of expired scopes is deleted with {@code LIMIT}.
 */
final class MariaDbIdempotencyStatements extends IdempotencyStatements {

	@Override
	String now() {
		return "UTC_TIMESTAMP(6)";
	}

	@Override
	String plusMillis(String time, String millis) {
		return "TIMESTAMPADD(MICROSECOND, (" + millis + ") * 1000, " + time + ")";
	}

	@Override
	String millisBetween(String from, String to) {
		return "TIMESTAMPDIFF(MICROSECOND, " + from + ", " + to + ") DIV 1000";
	}

	/**
	 * Reads a {@code DATETIME(6)} column as the UTC time it holds, which a driver would otherwise
	 * read in the JVM's time zone.
	 */
	@Override
	@Nullable Instant instant(ResultSet rs, String column) throws SQLException {
		LocalDateTime value = rs.getObject(column, LocalDateTime.class);
		return (value != null) ? value.toInstant(ZoneOffset.UTC) : null;
	}

	@Override
	SqlParameterValue timestamp(@Nullable Instant instant) {
		return new SqlParameterValue(Types.TIMESTAMP,
				(instant != null) ? LocalDateTime.ofInstant(instant, ZoneOffset.UTC) : null);
	}

	/**
	 * InnoDB's optimizer may read a list of keys through another index, such as the one on
	 * {@code expires_at}, for a small table: a locking read then locks the first record past the
	 * range it scans too.
	 */
	@Override
	String byPrimaryKey(String table) {
		return table + " FORCE INDEX (PRIMARY)";
	}

	@Override
	boolean claimReturnsExisting() {
		return true;
	}

	/**
	 * Inserts the claim, or, where a record holds the key, leaves it as it is and answers with it:
	 * one statement that reads the latest committed record under its row lock whatever the
	 * transaction's snapshot (InnoDB's {@code REPEATABLE READ}), so that a replay costs one
	 * statement. On a duplicate key, {@code ON DUPLICATE KEY UPDATE} takes an exclusive lock on
	 * the record rather than the shared lock of a failed insert, so that duplicates waiting for an
	 * uncommitted claim never deadlock upgrading their locks; its update changes nothing. Taking a
	 * record over is the portable compare-and-set on the fencing token read here.
	 */
	@Override
	String claim() {
		String now = now();
		return """
				INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, status, request_fingerprint,
				  fencing_token, locked_until, created_at, expires_at)
				VALUES (:tenant, :operation, :key, 'IN_PROGRESS', :fingerprint, :token, %s, %s, %s)
				ON DUPLICATE KEY UPDATE tenant_id = tenant_id
				RETURNING fencing_token = :token AS claimed, %s
				""".formatted(plusMillis(now, ":leaseMillis"), now, plusMillis(now, ":ttlMillis"),
				recordColumns(now));
	}

	/**
	 * As {@link #claim()} for many keys at once: one multi-row upsert, which answers a row per
	 * claim in the order given, the record that holds its key after it; a claim whose fencing token
	 * the row carries was claimed, and of two claims of one key in a batch only the first is.
	 */
	@Override
	String claimBatch(int size) {
		String now = now();
		StringBuilder rows = new StringBuilder();
		for (int i = 0; i < size; i++) {
			rows.append((i > 0) ? ",\n  " : "")
				.append("(:tenant%1$d, :operation%1$d, :key%1$d, 'IN_PROGRESS', :fingerprint%1$d, :token%1$d, ".formatted(i))
				.append(plusMillis(now, ":leaseMillis" + i))
				.append(", ")
				.append(now)
				.append(", ")
				.append(plusMillis(now, ":ttlMillis" + i))
				.append(")");
		}
		return """
				INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, status, request_fingerprint,
				  fencing_token, locked_until, created_at, expires_at)
				VALUES %s
				ON DUPLICATE KEY UPDATE tenant_id = tenant_id
				RETURNING FALSE AS claimed, %s
				""".formatted(rows, recordColumns(now));
	}

	@Override
	boolean advanceSequenceReturnsHighest() {
		return true;
	}

	/**
	 * An upsert whose update is conditional, answering the scope's highest number after it, which
	 * is the number given if it was accepted: a concurrent advance of the same scope waits on the
	 * row, then compares with the number it committed. MariaDB assigns left to right, each
	 * assignment seeing those before it: the number goes first, so that the others see whether it
	 * was accepted.
	 */
	@Override
	String advanceSequence() {
		String now = now();
		return """
				INSERT INTO idempotency_sequence (tenant_id, scope, highest_sequence, updated_at, expires_at)
				VALUES (:tenant, :scope, :sequence, %1$s, %2$s)
				ON DUPLICATE KEY UPDATE
				  highest_sequence = IF(highest_sequence <= :sequence OR expires_at <= %1$s, :sequence, highest_sequence),
				  updated_at = IF(highest_sequence = :sequence, %1$s, updated_at),
				  expires_at = IF(highest_sequence = :sequence, %2$s, expires_at)
				RETURNING highest_sequence
				""".formatted(now, plusMillis(now, ":ttlMillis"));
	}

	@Override
	String purgeExpiredSequences() {
		return """
				DELETE FROM idempotency_sequence
				WHERE expires_at <= %s
				LIMIT :batchSize
				""".formatted(statementTime());
	}

	/**
	 * An upsert that pushes out the expiry of a reference attached before. The key of a reference
	 * is the SHA-256 of its five columns, each prefixed by its length, as those are too long
	 * together for an InnoDB key.
	 */
	@Override
	String addReference() {
		String now = now();
		return """
				INSERT INTO idempotency_reference (tenant_id, operation, idempotency_key, reference_name,
				  reference_value, created_at, expires_at, reference_id)
				VALUES (:tenant, :operation, :key, :name, :value, %1$s, %2$s,
				  UNHEX(SHA2(CONCAT_WS(':', CHAR_LENGTH(:tenant), :tenant, CHAR_LENGTH(:operation), :operation,
				    CHAR_LENGTH(:key), :key, CHAR_LENGTH(:name), :name, CHAR_LENGTH(:value), :value), 256)))
				ON DUPLICATE KEY UPDATE expires_at = GREATEST(expires_at, %2$s)
				""".formatted(now, plusMillis(now, ":ttlMillis"));
	}

}
