package io.github.idempotency.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.SqlParameterValue;

/**
 * The SQL statements of the JDBC store, written once in portable SQL with named parameters; a
 * database's subclass supplies how it reads its clock and adds milliseconds to a time, and
 * overrides only the statements it writes otherwise (the claim's upsert, {@code SKIP LOCKED}
 * batches). Every statement decides time with the database clock. Each method composes its
 * statement when called: callers on the request path keep the result. Create one per data source
 * with {@link #of(DataSource)}.
 */
abstract class IdempotencyStatements {

	IdempotencyStatements() {
	}

	/**
	 * Return the statements of a database.
	 * @param platform the database
	 * @return its statements
	 */
	public static IdempotencyStatements of(DatabasePlatform platform) {
		return switch (platform) {
			case POSTGRESQL -> new PostgresIdempotencyStatements();
			case MARIADB -> new MariaDbIdempotencyStatements();
			case H2 -> new H2IdempotencyStatements();
		};
	}

	/**
	 * Return the statements of the database behind a data source.
	 * @param dataSource the data source
	 * @return its statements
	 * @throws IllegalStateException if the database is not supported
	 */
	public static IdempotencyStatements of(DataSource dataSource) {
		return of(DatabasePlatform.of(dataSource));
	}

	// How the database writes time: the hooks every database supplies.

	/**
	 * Return the database's current time, as a statement on the request path reads it.
	 * @return an SQL expression
	 */
	abstract String now();

	/**
	 * Return the database's time, the same throughout one statement, for statements that scan
	 * many records, so that it can bound an index scan.
	 * @return an SQL expression, {@link #now()} unless the database has another
	 */
	String statementTime() {
		return now();
	}

	/**
	 * Return a time plus a number of milliseconds.
	 * @param time an SQL expression of a time
	 * @param millis an SQL expression of a number of milliseconds, such as {@code :ttlMillis}
	 * @return an SQL expression
	 */
	abstract String plusMillis(String time, String millis);

	/**
	 * Return the whole number of milliseconds from one time to another.
	 * @param from an SQL expression of the earlier time
	 * @param to an SQL expression of the later time
	 * @return an SQL expression, negative if {@code to} is before {@code from}
	 */
	abstract String millisBetween(String from, String to);

	/**
	 * Read a time column.
	 * @param rs the result set, on a row
	 * @param column the column
	 * @return the instant, or {@code null}
	 * @throws SQLException if the column cannot be read
	 */
	@Nullable Instant instant(ResultSet rs, String column) throws SQLException {
		OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
		return (value != null) ? value.toInstant() : null;
	}

	/**
	 * Return an instant as the parameter of a time column.
	 * @param instant the instant, or {@code null}
	 * @return the parameter
	 */
	SqlParameterValue timestamp(@Nullable Instant instant) {
		return new SqlParameterValue(Types.TIMESTAMP_WITH_TIMEZONE,
				(instant != null) ? OffsetDateTime.ofInstant(instant, ZoneOffset.UTC) : null);
	}

	// What a claim may take over, written once.

	/**
	 * A record that has expired: past its expiry, unless it is in progress under a live lease. The
	 * TTL bounds how long a response is replayed, never how long an operation may run.
	 * @param now the time to judge by
	 * @return an SQL condition on a record
	 */
	final String expired(String now) {
		return "(expires_at <= " + now + " AND (status <> 'IN_PROGRESS' OR locked_until <= " + now + "))";
	}

	/**
	 * A record in progress whose lease ran out: its holder may be gone.
	 * @param now the time to judge by
	 * @return an SQL condition on a record
	 */
	final String leaseRanOut(String now) {
		return "(status = 'IN_PROGRESS' AND locked_until <= " + now + ")";
	}

	/**
	 * A record a claim may take over: expired, released by a transient failure, or whose lease ran
	 * out. Whether a run-out lease is taken over also depends on the request (the store compares
	 * fingerprints).
	 * @param now the time to judge by
	 * @return an SQL condition on a record
	 */
	final String takeable(String now) {
		return "(" + expired(now) + " OR " + leaseRanOut(now) + " OR status = 'RELEASED')";
	}

	/**
	 * The columns of {@link #select()}: a record with its time-derived flags.
	 */
	final String recordColumns(String now) {
		return """
				status, request_fingerprint, fencing_token, locked_until, created_at, completed_at, expires_at,
				  response_status, response_headers, response_body, attempts, last_failure, last_failure_at,
				  %s AS expired, %s AS lease_expired,
				  GREATEST(0, %s) AS lease_remaining_ms""".formatted(expired(now), leaseRanOut(now),
				millisBetween(now, "locked_until"));
	}

	// The statements.

	/**
	 * Whether {@link #claim()} answers with the existing record itself when the key is taken;
	 * otherwise it is a plain insert that fails with a duplicate key.
	 */
	boolean claimReturnsExisting() {
		return false;
	}

	/**
	 * Parameters {@code tenant<i>}, {@code operation<i>}, {@code key<i>}, {@code fingerprint<i>},
	 * {@code token<i>}, {@code leaseMillis<i>}, {@code ttlMillis<i>} for each claim {@code i}: claims
	 * free keys as {@link #claim()} does, all in one statement, answering a row per claim in the
	 * order given: whether it was claimed ({@code claimed}, or the record it answers carries the
	 * claim's token), and otherwise the record that holds its key, if the statement saw one.
	 * @param size how many claims
	 * @return the statement, or {@code null} where the database has none
	 */
	@Nullable String claimBatch(int size) {
		return null;
	}

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}, {@code fingerprint},
	 * {@code token}, {@code leaseMillis}, {@code ttlMillis}: claims a free key.
	 */
	String claim() {
		String now = now();
		return """
				INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, status, request_fingerprint,
				  fencing_token, locked_until, created_at, expires_at)
				VALUES (:tenant, :operation, :key, 'IN_PROGRESS', :fingerprint, :token, %s, %s, %s)
				""".formatted(plusMillis(now, ":leaseMillis"), now, plusMillis(now, ":ttlMillis"));
	}

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}: reads one record with its
	 * time-derived flags.
	 */
	String select() {
		return """
				SELECT FALSE AS claimed, %s
				FROM idempotency_record
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				""".formatted(recordColumns(now()));
	}

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}, {@code oldToken},
	 * {@code fingerprint}, {@code newToken}, {@code leaseMillis}, {@code ttlMillis},
	 * {@code attempt}: takes over an expired record, a released one or a run-out lease. The
	 * take-over of a lease records it as the last failure, and a claim of an expired record
	 * ({@code :attempt} 1) forgets the failures of the record it replaces. The failure goes first:
	 * MariaDB assigns left to right, each assignment seeing those before it, and the failure reads
	 * the status the record had.
	 */
	String takeOver() {
		String now = now();
		return """
				UPDATE idempotency_record
				SET last_failure = CASE WHEN :attempt = 1 THEN NULL WHEN status = 'IN_PROGRESS' THEN 'lease expired'
				    ELSE last_failure END,
				  last_failure_at = CASE WHEN :attempt = 1 THEN NULL WHEN status = 'IN_PROGRESS' THEN %1$s
				    ELSE last_failure_at END,
				  status = 'IN_PROGRESS', request_fingerprint = :fingerprint, fencing_token = :newToken,
				  locked_until = %2$s, created_at = %1$s, completed_at = NULL, expires_at = %3$s,
				  response_status = NULL, response_headers = NULL, response_body = NULL, attempts = :attempt
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				  AND fencing_token = :oldToken AND %4$s
				""".formatted(now, plusMillis(now, ":leaseMillis"), plusMillis(now, ":ttlMillis"), takeable(now));
	}

	/**
	 * Parameters as {@link #takeOver()}: takes over an expired record and archives it in one
	 * statement, answering the number of records taken over; {@code null} where that takes
	 * {@link #takeOver()} followed by {@link #archiveRecord()}.
	 */
	@Nullable String takeOverArchiving() {
		return null;
	}

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}, {@code status},
	 * {@code fingerprint}, {@code token}, {@code createdAt}, {@code completedAt}, {@code expiresAt},
	 * {@code responseStatus}, {@code responseHeaders}, {@code responseBody}: archives a record from
	 * the values given.
	 */
	String archiveRecord() {
		return """
				INSERT INTO idempotency_record_archive (tenant_id, operation, idempotency_key, status,
				  request_fingerprint, fencing_token, created_at, completed_at, expires_at, response_status,
				  response_headers, response_body, archived_at)
				VALUES (:tenant, :operation, :key, :status, :fingerprint, :token, :createdAt, :completedAt, :expiresAt,
				  :responseStatus, :responseHeaders, :responseBody, %s)
				""".formatted(now());
	}

	/**
	 * Parameters {@code tenant<i>}, {@code operation<i>}, {@code key<i>}, {@code token<i>},
	 * {@code responseStatus<i>}, {@code responseHeaders<i>}, {@code responseBody<i>},
	 * {@code ttlMillis<i>} for each completion {@code i}: completes as {@link #complete()} does, all
	 * in one statement, answering the index ({@code idx}) of each completion that held its key.
	 * @param size how many completions
	 * @return the statement, or {@code null} where the database has none
	 */
	@Nullable String completeBatch(int size) {
		return null;
	}

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}, {@code token},
	 * {@code responseStatus}, {@code responseHeaders}, {@code responseBody}, {@code ttlMillis}.
	 */
	String complete() {
		String now = now();
		return """
				UPDATE idempotency_record
				SET status = 'COMPLETED', response_status = :responseStatus, response_headers = :responseHeaders,
				  response_body = :responseBody, completed_at = %s, expires_at = %s, locked_until = NULL
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				  AND fencing_token = :token AND status = 'IN_PROGRESS'
				""".formatted(now, plusMillis(now, ":ttlMillis"));
	}

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}, {@code token}, {@code failure}:
	 * marks a record in progress released, with its failure, to expire as long after the release
	 * as its TTL.
	 */
	String release() {
		String now = now();
		return """
				UPDATE idempotency_record
				SET status = 'RELEASED', locked_until = NULL, last_failure = :failure, last_failure_at = %s,
				  expires_at = %s
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				  AND fencing_token = :token AND status = 'IN_PROGRESS'
				""".formatted(now, plusMillis(now, millisBetween("created_at", "expires_at")));
	}

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}, {@code token},
	 * {@code leaseMillis}.
	 */
	String extendLease() {
		return """
				UPDATE idempotency_record
				SET locked_until = %s
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				  AND fencing_token = :token AND status = 'IN_PROGRESS'
				""".formatted(plusMillis(now(), ":leaseMillis"));
	}

	/**
	 * Whether {@link #purgeExpired()} and {@link #purgeStuck()} delete and archive a whole batch,
	 * answering the counts per operation; otherwise they read candidates of a batch for
	 * {@link #lockExpired()} or {@link #lockStuck()}, then {@link #archiveByKeys()},
	 * {@link #archiveReferencesByKeys()}, {@link #deleteReferencesByKey()} and
	 * {@link #deleteByKey()}.
	 */
	boolean purgesInOneStatement() {
		return false;
	}

	/**
	 * The records that the purge deletes as expired: completed or released, past their expiry.
	 * Never a record in progress, whose lease may live past its expiry.
	 * @return an SQL condition on a record
	 */
	final String expiredForPurge() {
		return "status <> 'IN_PROGRESS' AND expires_at <= " + statementTime();
	}

	/**
	 * The records that the purge deletes as stuck: in progress, {@code :stuckAfterMillis} past
	 * their lease.
	 * @return an SQL condition on a record
	 */
	final String stuckForPurge() {
		return "status = 'IN_PROGRESS' AND locked_until <= " + plusMillis(statementTime(), "-:stuckAfterMillis");
	}

	/**
	 * Parameters {@code batchSize}, then, where a batch is one statement,
	 * {@code archivedOperations}, else {@code candidates}: one batch of records past their
	 * expiry. Here: reads the keys of up to {@code candidates} of them, without locking anything,
	 * for {@link #lockExpired()}.
	 */
	String purgeExpired() {
		return candidates(expiredForPurge());
	}

	/**
	 * Parameters {@code stuckAfterMillis}, then as {@link #purgeExpired()}: one batch of records
	 * left in progress long past their lease. Here: reads candidates, for {@link #lockStuck()}.
	 */
	String purgeStuck() {
		return candidates(stuckForPurge());
	}

	/**
	 * Parameters {@code keys} (candidates that {@link #purgeExpired()} read), {@code batchSize}:
	 * locks up to a batch of them that are still expired, skipping those a claim or another purger
	 * holds, with their status, to archive and delete by key in the same transaction. The locks
	 * are taken by key, so that they fall on those records only: a range scan would also lock the
	 * first record past its range (InnoDB does, even at {@code READ COMMITTED}), and hold up the
	 * completion of a live record until the batch commits.
	 */
	String lockExpired() {
		return lock(expiredForPurge());
	}

	/**
	 * Parameters {@code keys} (candidates that {@link #purgeStuck()} read),
	 * {@code stuckAfterMillis}, {@code batchSize}: as {@link #lockExpired()}, for records still
	 * stuck.
	 */
	String lockStuck() {
		return lock(stuckForPurge());
	}

	private String candidates(String condition) {
		return """
				SELECT tenant_id, operation, idempotency_key
				FROM idempotency_record
				WHERE %s
				LIMIT :candidates
				""".formatted(condition);
	}

	private String lock(String condition) {
		return """
				SELECT tenant_id, operation, idempotency_key, status
				FROM %s
				WHERE (tenant_id, operation, idempotency_key) IN (:keys) AND %s
				LIMIT :batchSize
				FOR UPDATE SKIP LOCKED
				""".formatted(byPrimaryKey("idempotency_record"), condition);
	}

	/**
	 * Return a table as a statement names it to reach its rows by their primary key only, where
	 * the database could otherwise choose another index.
	 * @param table the table
	 * @return the table reference, the table's name unless the database has a hint
	 */
	String byPrimaryKey(String table) {
		return table;
	}

	/**
	 * Parameter {@code keys}, a list of {@code (tenant, operation, key)} triples: copies those
	 * records into the archive table, except those a transient failure released. It reads them as
	 * committed, without locking them (the purge has).
	 */
	String archiveByKeys() {
		return """
				INSERT INTO idempotency_record_archive (tenant_id, operation, idempotency_key, status,
				  request_fingerprint, fencing_token, created_at, completed_at, expires_at, response_status,
				  response_headers, response_body, archived_at)
				SELECT tenant_id, operation, idempotency_key, status, request_fingerprint, fencing_token, created_at,
				  completed_at, expires_at, response_status, response_headers, response_body, %s
				FROM idempotency_record
				WHERE (tenant_id, operation, idempotency_key) IN (:keys) AND status <> 'RELEASED'
				""".formatted(now());
	}

	/**
	 * Parameter {@code keys}, as {@link #archiveByKeys()}: copies the references of those keys
	 * into their archive table.
	 */
	String archiveReferencesByKeys() {
		return """
				INSERT INTO idempotency_reference_archive (tenant_id, operation, idempotency_key, reference_name,
				  reference_value, created_at, archived_at)
				SELECT tenant_id, operation, idempotency_key, reference_name, reference_value, created_at, %s
				FROM idempotency_reference
				WHERE (tenant_id, operation, idempotency_key) IN (:keys)
				""".formatted(now());
	}

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}: deletes one record whatever its
	 * state. By key, one record at a time, so that it locks nothing else: InnoDB may delete a list
	 * of keys by scanning the whole table, and wait there for the records another purger holds.
	 */
	String deleteByKey() {
		return """
				DELETE FROM idempotency_record
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				""";
	}

	/**
	 * No parameters: counts records per operation and status, with how many have expired and how
	 * many are stuck in progress past their lease.
	 */
	String countByOperation() {
		String now = statementTime();
		return """
				SELECT operation, status, count(*) AS records,
				  count(CASE WHEN %s THEN 1 END) AS expired,
				  count(CASE WHEN %s THEN 1 END) AS stuck
				FROM idempotency_record
				GROUP BY operation, status
				""".formatted(expired(now), leaseRanOut(now));
	}

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}: reads the metadata of one record,
	 * without its response body.
	 */
	String describe() {
		String now = now();
		return """
				SELECT status, request_fingerprint, locked_until, created_at, completed_at, expires_at,
				  response_status, OCTET_LENGTH(response_body) AS response_bytes, attempts, last_failure,
				  last_failure_at, %s AS expired, %s AS lease_expired
				FROM idempotency_record
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				""".formatted(expired(now), leaseRanOut(now));
	}

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}, {@code force} (whether to release
	 * a live lease too): deletes a record in progress.
	 */
	String releaseStuck() {
		return """
				DELETE FROM idempotency_record
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				  AND status = 'IN_PROGRESS' AND (:force OR locked_until <= %s)
				""".formatted(now());
	}

	/**
	 * No parameters: counts records in progress past their lease.
	 */
	String countStuck() {
		return """
				SELECT count(*)
				FROM idempotency_record
				WHERE %s
				""".formatted(leaseRanOut(statementTime()));
	}

	/**
	 * Parameters {@code operation} (or {@code null} for every operation), {@code limit}: the live
	 * records of keys that ran more than once, most attempts first, then the latest failure.
	 */
	String repeatedFailures() {
		return """
				SELECT operation, idempotency_key, status, attempts, last_failure, last_failure_at
				FROM idempotency_record
				WHERE attempts > 1 AND (CAST(:operation AS CHAR(255)) IS NULL OR operation = :operation)
				  AND NOT %s
				ORDER BY attempts DESC, CASE WHEN last_failure_at IS NULL THEN 1 ELSE 0 END, last_failure_at DESC
				LIMIT :limit
				""".formatted(expired(statementTime()));
	}

	/**
	 * Parameters {@code tenant}, {@code scope}, {@code sequence}, {@code ttlMillis}: one
	 * conditional write that raises the scope's highest number to {@code sequence} if that is at
	 * least as high, or the scope is absent or expired; updates one row when it does, none when it
	 * does not. Here a merge, whose concurrent first advance of the same scope fails with a
	 * duplicate key, and is tried again.
	 */
	String advanceSequence() {
		String now = now();
		return """
				MERGE INTO idempotency_sequence s
				USING (VALUES (CAST(:tenant AS VARCHAR(255)), CAST(:scope AS VARCHAR(255)), CAST(:sequence AS BIGINT)))
				  AS v (tenant_id, scope, highest_sequence)
				ON s.tenant_id = v.tenant_id AND s.scope = v.scope
				WHEN MATCHED AND (s.highest_sequence <= v.highest_sequence OR s.expires_at <= %1$s) THEN
				  UPDATE SET highest_sequence = v.highest_sequence, updated_at = %1$s, expires_at = %2$s
				WHEN NOT MATCHED THEN
				  INSERT (tenant_id, scope, highest_sequence, updated_at, expires_at)
				  VALUES (v.tenant_id, v.scope, v.highest_sequence, %1$s, %2$s)
				""".formatted(now, plusMillis(now, ":ttlMillis"));
	}

	/**
	 * Whether {@link #advanceSequence()} answers with the scope's highest number after it, one row
	 * with one column; otherwise it answers the number of rows it updated.
	 */
	boolean advanceSequenceReturnsHighest() {
		return false;
	}

	/**
	 * Parameters {@code tenant}, {@code scope}: the highest number of a live scope.
	 */
	String selectSequence() {
		return """
				SELECT highest_sequence
				FROM idempotency_sequence
				WHERE tenant_id = :tenant AND scope = :scope AND expires_at > %s
				""".formatted(now());
	}

	/**
	 * Parameter {@code batchSize}: deletes one batch of expired scopes.
	 */
	String purgeExpiredSequences() {
		return """
				DELETE FROM idempotency_sequence
				WHERE expires_at <= %s
				FETCH FIRST :batchSize ROWS ONLY
				""".formatted(statementTime());
	}

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}, {@code name}, {@code value},
	 * {@code ttlMillis}: attaches a reference to a key, or pushes out the expiry of one attached
	 * before. Here a merge; a concurrent first attachment of the same reference fails with a
	 * duplicate key, which means it is there.
	 */
	String addReference() {
		String now = now();
		return """
				MERGE INTO idempotency_reference r
				USING (VALUES (CAST(:tenant AS VARCHAR(255)), CAST(:operation AS VARCHAR(255)),
				  CAST(:key AS VARCHAR(255)), CAST(:name AS VARCHAR(64)), CAST(:value AS VARCHAR(255))))
				  AS v (tenant_id, operation, idempotency_key, reference_name, reference_value)
				ON r.tenant_id = v.tenant_id AND r.operation = v.operation AND r.idempotency_key = v.idempotency_key
				  AND r.reference_name = v.reference_name AND r.reference_value = v.reference_value
				WHEN MATCHED THEN
				  UPDATE SET expires_at = GREATEST(r.expires_at, %2$s)
				WHEN NOT MATCHED THEN
				  INSERT (tenant_id, operation, idempotency_key, reference_name, reference_value, created_at, expires_at)
				  VALUES (v.tenant_id, v.operation, v.idempotency_key, v.reference_name, v.reference_value, %1$s, %2$s)
				""".formatted(now, plusMillis(now, ":ttlMillis"));
	}

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}: the references of a key, by name
	 * and value.
	 */
	String selectReferences() {
		return """
				SELECT reference_name, reference_value
				FROM idempotency_reference
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				""";
	}

	/**
	 * Parameters {@code name}, {@code value}, {@code limit}: the keys a reference is attached to,
	 * oldest first, with the status of their record, if any.
	 */
	String findByReference() {
		return """
				SELECT r.tenant_id, r.operation, r.idempotency_key, rec.status
				FROM idempotency_reference r
				LEFT JOIN idempotency_record rec ON rec.tenant_id = r.tenant_id AND rec.operation = r.operation
				  AND rec.idempotency_key = r.idempotency_key
				WHERE r.reference_name = :name AND r.reference_value = :value
				ORDER BY r.created_at, r.tenant_id, r.operation, r.idempotency_key
				LIMIT :limit
				""";
	}

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}: copies the references of a key
	 * into their archive table.
	 */
	String archiveReferencesByKey() {
		return """
				INSERT INTO idempotency_reference_archive (tenant_id, operation, idempotency_key, reference_name,
				  reference_value, created_at, archived_at)
				SELECT tenant_id, operation, idempotency_key, reference_name, reference_value, created_at, %s
				FROM idempotency_reference
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				""".formatted(now());
	}

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}: deletes the references of a key.
	 */
	String deleteReferencesByKey() {
		return """
				DELETE FROM idempotency_reference
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				""";
	}

	/**
	 * Parameters {@code batchSize}, {@code archivedOperations}: deletes a batch of expired
	 * references whose record is gone, archiving those of archived operations, in one statement
	 * that answers how many it deleted; {@code null} where that takes
	 * {@link #archiveOrphanReferences()} and {@link #deleteOrphanReferences()}.
	 */
	@Nullable String purgeOrphanReferences() {
		return null;
	}

	/**
	 * Parameter {@code archivedOperations} (a non-empty list): archives the expired references
	 * whose record is gone of archived operations.
	 */
	String archiveOrphanReferences() {
		String now = statementTime();
		return """
				INSERT INTO idempotency_reference_archive (tenant_id, operation, idempotency_key, reference_name,
				  reference_value, created_at, archived_at)
				SELECT tenant_id, operation, idempotency_key, reference_name, reference_value, created_at, %1$s
				FROM idempotency_reference r
				WHERE r.expires_at <= %1$s AND r.operation IN (:archivedOperations)
				  AND NOT EXISTS (SELECT 1 FROM idempotency_record rec WHERE rec.tenant_id = r.tenant_id
				    AND rec.operation = r.operation AND rec.idempotency_key = r.idempotency_key)
				""".formatted(now);
	}

	/**
	 * No parameters: deletes the expired references whose record is gone.
	 */
	String deleteOrphanReferences() {
		return """
				DELETE FROM idempotency_reference
				WHERE expires_at <= %s
				  AND NOT EXISTS (SELECT 1 FROM idempotency_record rec
				    WHERE rec.tenant_id = idempotency_reference.tenant_id
				      AND rec.operation = idempotency_reference.operation
				      AND rec.idempotency_key = idempotency_reference.idempotency_key)
				""".formatted(statementTime());
	}

}
