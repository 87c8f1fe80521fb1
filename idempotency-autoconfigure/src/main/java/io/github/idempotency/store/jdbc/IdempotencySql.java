package io.github.idempotency.store.jdbc;

/**
 * Every SQL statement of the JDBC store, per database. Each statement decides time with the
 * database clock.
 */
public final class IdempotencySql {

	static final String TABLE = "idempotency_record";

	static final String ARCHIVE_TABLE = "idempotency_record_archive";

	private static final String KEY_MATCH = "tenant_id = ? AND operation = ? AND idempotency_key = ?";

	private static final String ARCHIVE_COLUMNS = "tenant_id, operation, idempotency_key, status, request_fingerprint, "
			+ "fencing_token, created_at, completed_at, expires_at, response_status, response_headers, response_body";

	private static final String EXPIRED = "status = 'COMPLETED' AND expires_at <= ";

	private static final String STUCK = "status = 'IN_PROGRESS' AND locked_until <= ";

	private final DatabasePlatform platform;

	private final String claim;

	private final String select;

	private final String takeOver;

	private final String complete;

	private final String release;

	private final String extendLease;

	private final String archiveRecord;

	private final String takeOverArchiving;

	private final String purgeExpired;

	private final String purgeStuck;

	private final String archiveByKey;

	private final String deleteByKey;

	private final String countByOperation;

	private final String describe;

	private final String releaseStuck;

	private final String countStuck;

	/**
	 * The statements of one database. {@code now} is the clock of the request path;
	 * {@code stableNow} is one the planner may use as an index bound, for statements that scan.
	 */
	private IdempotencySql(DatabasePlatform platform, String now, String nowPlusMillis, String leaseRemainingMillis,
			String stableNow, String stableNowPlusMillis) {
		this.platform = platform;
		String recordColumns = "status, request_fingerprint, fencing_token, locked_until, created_at, completed_at, "
				+ "expires_at, response_status, response_headers, response_body, (expires_at <= " + now
				+ " AND " + notLive(now) + ") AS expired, (locked_until IS NOT NULL AND locked_until <= " + now
				+ ") AS lease_expired, " + leaseRemainingMillis + " AS lease_remaining_ms";
		this.select = "SELECT FALSE AS claimed, " + recordColumns + " FROM " + TABLE + " WHERE " + KEY_MATCH;
		String insert = "INSERT INTO " + TABLE + " (tenant_id, operation, idempotency_key, status, "
				+ "request_fingerprint, fencing_token, locked_until, created_at, expires_at) VALUES (?, ?, ?, "
				+ "'IN_PROGRESS', ?, ?, " + nowPlusMillis + ", " + now + ", " + nowPlusMillis + ")";
		this.claim = (platform == DatabasePlatform.POSTGRESQL) ? postgresClaim(recordColumns, now, nowPlusMillis)
				: insert;
		this.takeOver = "UPDATE " + TABLE + " SET status = 'IN_PROGRESS', request_fingerprint = ?, fencing_token = ?, "
				+ "locked_until = " + nowPlusMillis + ", created_at = " + now + ", completed_at = NULL, expires_at = "
				+ nowPlusMillis + ", response_status = NULL, response_headers = NULL, response_body = NULL WHERE "
				+ KEY_MATCH + " AND fencing_token = ? AND ((expires_at <= " + now + " AND " + notLive(now)
				+ ") OR (status = 'IN_PROGRESS' AND locked_until <= " + now + "))";
		this.complete = "UPDATE " + TABLE + " SET status = 'COMPLETED', response_status = ?, response_headers = ?, "
				+ "response_body = ?, completed_at = " + now + ", expires_at = " + nowPlusMillis
				+ ", locked_until = NULL WHERE " + KEY_MATCH + " AND fencing_token = ? AND status = 'IN_PROGRESS'";
		this.release = "DELETE FROM " + TABLE + " WHERE " + KEY_MATCH
				+ " AND fencing_token = ? AND status = 'IN_PROGRESS'";
		this.extendLease = "UPDATE " + TABLE + " SET locked_until = " + nowPlusMillis + " WHERE " + KEY_MATCH
				+ " AND fencing_token = ? AND status = 'IN_PROGRESS'";
		this.archiveRecord = "INSERT INTO " + ARCHIVE_TABLE + " (" + ARCHIVE_COLUMNS
				+ ", archived_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, " + now + ")";
		boolean oneStatement = platform == DatabasePlatform.POSTGRESQL;
		this.takeOverArchiving = oneStatement ? postgresTakeOverArchiving(now, nowPlusMillis) : null;
		this.purgeExpired = oneStatement ? postgresPurge(EXPIRED + stableNow, stableNow)
				: h2LockBatch(EXPIRED + stableNow);
		this.purgeStuck = oneStatement ? postgresPurge(STUCK + stableNowPlusMillis, stableNow)
				: h2LockBatch(STUCK + stableNowPlusMillis);
		this.archiveByKey = "INSERT INTO " + ARCHIVE_TABLE + " (" + ARCHIVE_COLUMNS + ", archived_at) SELECT "
				+ ARCHIVE_COLUMNS + ", " + now + " FROM " + TABLE + " WHERE " + KEY_MATCH;
		this.deleteByKey = "DELETE FROM " + TABLE + " WHERE " + KEY_MATCH;
		this.countByOperation = "SELECT operation, status, count(*) AS records, count(CASE WHEN expires_at <= "
				+ stableNow + " AND " + notLive(stableNow) + " THEN 1 END) AS expired, count(CASE WHEN status = "
				+ "'IN_PROGRESS' AND locked_until <= " + stableNow + " THEN 1 END) AS stuck FROM " + TABLE
				+ " GROUP BY operation, status";
		this.describe = "SELECT status, request_fingerprint, locked_until, created_at, completed_at, expires_at, "
				+ "response_status, OCTET_LENGTH(response_body) AS response_bytes, (expires_at <= " + now + " AND "
				+ notLive(now) + ") AS expired, (locked_until IS NOT NULL AND locked_until <= " + now
				+ ") AS lease_expired FROM " + TABLE + " WHERE " + KEY_MATCH;
		this.releaseStuck = "DELETE FROM " + TABLE + " WHERE " + KEY_MATCH
				+ " AND status = 'IN_PROGRESS' AND (? OR locked_until <= " + now + ")";
		this.countStuck = "SELECT count(*) FROM " + TABLE + " WHERE " + STUCK + stableNow;
	}

	/**
	 * Return the statements for a database.
	 * @param platform the database
	 * @return its statements
	 */
	public static IdempotencySql forPlatform(DatabasePlatform platform) {
		return switch (platform) {
			case POSTGRESQL -> new IdempotencySql(platform, "clock_timestamp()",
					"clock_timestamp() + (? * INTERVAL '1 millisecond')",
					"GREATEST(0, CAST(EXTRACT(EPOCH FROM (locked_until - clock_timestamp())) * 1000 AS BIGINT))",
					"statement_timestamp()", "statement_timestamp() + (? * INTERVAL '1 millisecond')");
			case H2 -> new IdempotencySql(platform, "CURRENT_TIMESTAMP",
					"DATEADD(MILLISECOND, ?, CURRENT_TIMESTAMP)",
					"GREATEST(0, DATEDIFF(MILLISECOND, CURRENT_TIMESTAMP, locked_until))", "CURRENT_TIMESTAMP",
					"DATEADD(MILLISECOND, ?, CURRENT_TIMESTAMP)");
		};
	}

	/**
	 * Locks the expired record, takes it over and archives what it held, all in one statement: a
	 * concurrent claim of the same key waits on the lock, then finds a new token and archives
	 * nothing.
	 */
	private static String postgresTakeOverArchiving(String now, String nowPlusMillis) {
		return "WITH old AS (SELECT " + ARCHIVE_COLUMNS + " FROM " + TABLE + " WHERE " + KEY_MATCH
				+ " AND fencing_token = ? AND expires_at <= " + now + " AND " + notLive(now)
				+ " FOR UPDATE), taken AS (UPDATE " + TABLE
				+ " r SET status = 'IN_PROGRESS', request_fingerprint = ?, fencing_token = ?, locked_until = "
				+ nowPlusMillis + ", created_at = " + now + ", completed_at = NULL, expires_at = " + nowPlusMillis
				+ ", response_status = NULL, response_headers = NULL, response_body = NULL FROM old WHERE "
				+ "r.tenant_id = old.tenant_id AND r.operation = old.operation AND r.idempotency_key = "
				+ "old.idempotency_key RETURNING 1), archived AS (INSERT INTO " + ARCHIVE_TABLE + " ("
				+ ARCHIVE_COLUMNS + ", archived_at) SELECT " + ARCHIVE_COLUMNS + ", " + now
				+ " FROM old WHERE EXISTS (SELECT 1 FROM taken)) SELECT count(*) FROM taken";
	}

	/**
	 * One purge batch on PostgreSQL: locks up to a batch of matching records, skipping those a
	 * claim or another purger holds, deletes them and archives those of archived operations, in one
	 * statement; answers the counts per operation.
	 */
	private static String postgresPurge(String condition, String now) {
		return "WITH batch AS (SELECT tenant_id, operation, idempotency_key FROM " + TABLE + " WHERE " + condition
				+ " LIMIT ? FOR UPDATE SKIP LOCKED), deleted AS (DELETE FROM " + TABLE + " r USING batch b WHERE "
				+ "r.tenant_id = b.tenant_id AND r.operation = b.operation AND r.idempotency_key = b.idempotency_key "
				+ "RETURNING r.*), archived AS (INSERT INTO " + ARCHIVE_TABLE + " (" + ARCHIVE_COLUMNS
				+ ", archived_at) SELECT " + ARCHIVE_COLUMNS + ", " + now + " FROM deleted WHERE operation = ANY (?) "
				+ "RETURNING operation) SELECT d.operation, count(*) AS deleted, (SELECT count(*) FROM archived a "
				+ "WHERE a.operation = d.operation) AS archived FROM deleted d GROUP BY d.operation";
	}

	/**
	 * One purge batch on H2 starts by locking the keys of up to a batch of matching records,
	 * skipping those held elsewhere; they are then archived and deleted by key in the same
	 * transaction.
	 */
	private static String h2LockBatch(String condition) {
		return "SELECT tenant_id, operation, idempotency_key FROM " + TABLE + " WHERE " + condition
				+ " LIMIT ? FOR UPDATE SKIP LOCKED";
	}

	/**
	 * A record in progress whose lease lives keeps its key past its expiry: the TTL bounds how
	 * long a response is replayed, never how long an operation may run.
	 */
	private static String notLive(String now) {
		return "(status = 'COMPLETED' OR locked_until <= " + now + ")";
	}

	/**
	 * The claim on PostgreSQL reads the record first and inserts only when there is none, so that a
	 * replay costs one index read and no write; the insert is {@code ON CONFLICT DO NOTHING}, so
	 * that a race never aborts an enclosing transaction (it then returns no row, and is retried).
	 */
	private static String postgresClaim(String recordColumns, String now, String nowPlusMillis) {
		return "WITH existing AS (SELECT " + recordColumns + " FROM " + TABLE + " WHERE " + KEY_MATCH
				+ "), claimed AS (INSERT INTO " + TABLE + " (tenant_id, operation, idempotency_key, status, "
				+ "request_fingerprint, fencing_token, locked_until, created_at, expires_at) SELECT ?, ?, ?, "
				+ "'IN_PROGRESS', ?, ?, " + nowPlusMillis + ", " + now + ", " + nowPlusMillis
				+ " WHERE NOT EXISTS (SELECT 1 FROM existing) ON CONFLICT (tenant_id, operation, idempotency_key) "
				+ "DO NOTHING RETURNING 1) SELECT TRUE AS claimed, NULL::varchar AS status, "
				+ "NULL::varchar AS request_fingerprint, NULL::uuid AS fencing_token, NULL::timestamptz AS locked_until, "
				+ "NULL::timestamptz AS created_at, NULL::timestamptz AS completed_at, NULL::timestamptz AS expires_at, "
				+ "NULL::integer AS response_status, NULL::text AS response_headers, NULL::bytea AS response_body, "
				+ "FALSE AS expired, FALSE AS lease_expired, CAST(0 AS BIGINT) AS lease_remaining_ms FROM claimed "
				+ "UNION ALL SELECT FALSE, existing.* FROM existing";
	}

	public DatabasePlatform platform() {
		return this.platform;
	}

	/**
	 * Whether {@link #claim()} answers with the existing record itself when the key is taken;
	 * otherwise it is a plain insert that fails with a duplicate key.
	 * @return whether the claim statement returns rows
	 */
	public boolean claimReturnsExisting() {
		return this.platform == DatabasePlatform.POSTGRESQL;
	}

	/**
	 * Parameters: on PostgreSQL tenant, operation, key first; then tenant, operation, key,
	 * fingerprint, token, lease ms, ttl ms.
	 * @return the claim statement
	 */
	public String claim() {
		return this.claim;
	}

	/**
	 * Parameters: tenant, operation, key.
	 * @return the statement that reads one record with its time-derived flags
	 */
	public String select() {
		return this.select;
	}

	/**
	 * Parameters: fingerprint, new token, lease ms, ttl ms, tenant, operation, key, old token.
	 * @return the statement that takes over an expired record or a run-out lease
	 */
	public String takeOver() {
		return this.takeOver;
	}

	/**
	 * Parameters: status, headers, body, ttl ms, tenant, operation, key, token.
	 * @return the completion statement
	 */
	public String complete() {
		return this.complete;
	}

	/**
	 * Parameters: tenant, operation, key, token.
	 * @return the release statement
	 */
	public String release() {
		return this.release;
	}

	/**
	 * Parameters: lease ms, tenant, operation, key, token.
	 * @return the lease extension statement
	 */
	public String extendLease() {
		return this.extendLease;
	}

	/**
	 * Parameters: tenant, operation, key, status, fingerprint, token, created at, completed at,
	 * expires at, response status, headers, body.
	 * @return the statement that archives a record from the values given
	 */
	public String archiveRecord() {
		return this.archiveRecord;
	}

	/**
	 * Whether {@link #takeOverArchiving()} takes over and archives in one statement; otherwise
	 * {@link #takeOver()} is followed by {@link #archiveRecord()}.
	 * @return whether the archiving take-over is one statement
	 */
	public boolean takesOverArchivingInOneStatement() {
		return this.takeOverArchiving != null;
	}

	/**
	 * Parameters: tenant, operation, key, old token, fingerprint, new token, lease ms, ttl ms.
	 * @return the statement that takes over an expired record and archives it, answering the number
	 * of records taken over, or {@code null} where that takes two statements
	 */
	public String takeOverArchiving() {
		return this.takeOverArchiving;
	}

	/**
	 * Whether {@link #purgeExpired()} and {@link #purgeStuck()} delete and archive a whole batch;
	 * otherwise they lock the keys of a batch for {@link #archiveByKey()} and {@link #deleteByKey()}.
	 * @return whether a purge batch is one statement
	 */
	public boolean purgesInOneStatement() {
		return this.platform == DatabasePlatform.POSTGRESQL;
	}

	/**
	 * Parameters: batch size, then, where a batch is one statement, the array of archived
	 * operations.
	 * @return the statement of one batch of completed records past their expiry
	 */
	public String purgeExpired() {
		return this.purgeExpired;
	}

	/**
	 * Parameters: the negated stuck-after ms, batch size, then, where a batch is one statement, the
	 * array of archived operations.
	 * @return the statement of one batch of records left in progress that long past their lease
	 */
	public String purgeStuck() {
		return this.purgeStuck;
	}

	/**
	 * Parameters: tenant, operation, key.
	 * @return the statement that copies one record into the archive table
	 */
	public String archiveByKey() {
		return this.archiveByKey;
	}

	/**
	 * Parameters: tenant, operation, key.
	 * @return the statement that deletes one record whatever its state
	 */
	public String deleteByKey() {
		return this.deleteByKey;
	}

	/**
	 * No parameters.
	 * @return the statement that counts records per operation and status, with how many have
	 * expired and how many are stuck in progress past their lease
	 */
	public String countByOperation() {
		return this.countByOperation;
	}

	/**
	 * Parameters: tenant, operation, key.
	 * @return the statement that reads the metadata of one record, without its response body
	 */
	public String describe() {
		return this.describe;
	}

	/**
	 * Parameters: tenant, operation, key, whether to release a live lease too.
	 * @return the statement that deletes a record in progress
	 */
	public String releaseStuck() {
		return this.releaseStuck;
	}

	/**
	 * No parameters.
	 * @return the statement that counts records in progress past their lease
	 */
	public String countStuck() {
		return this.countStuck;
	}

}
