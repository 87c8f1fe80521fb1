package io.github.idempotency.store.jdbc;

/**
 * Every SQL statement of the JDBC store, per database. Each statement decides time with the
 * database clock.
 */
public final class IdempotencySql {

	static final String TABLE = "idempotency_record";

	private static final String KEY_MATCH = "tenant_id = ? AND operation = ? AND idempotency_key = ?";

	private final DatabasePlatform platform;

	private final String claim;

	private final String select;

	private final String takeOver;

	private final String complete;

	private final String release;

	private final String extendLease;

	private IdempotencySql(DatabasePlatform platform, String now, String nowPlusMillis, String leaseRemainingMillis) {
		this.platform = platform;
		String recordColumns = "status, request_fingerprint, fencing_token, locked_until, created_at, completed_at, "
				+ "expires_at, response_status, response_headers, response_body, (expires_at <= " + now
				+ ") AS expired, (locked_until IS NOT NULL AND locked_until <= " + now + ") AS lease_expired, "
				+ leaseRemainingMillis + " AS lease_remaining_ms";
		this.select = "SELECT FALSE AS claimed, " + recordColumns + " FROM " + TABLE + " WHERE " + KEY_MATCH;
		String insert = "INSERT INTO " + TABLE + " (tenant_id, operation, idempotency_key, status, "
				+ "request_fingerprint, fencing_token, locked_until, created_at, expires_at) VALUES (?, ?, ?, "
				+ "'IN_PROGRESS', ?, ?, " + nowPlusMillis + ", " + now + ", " + nowPlusMillis + ")";
		this.claim = (platform == DatabasePlatform.POSTGRESQL) ? postgresClaim(insert, recordColumns) : insert;
		this.takeOver = "UPDATE " + TABLE + " SET status = 'IN_PROGRESS', request_fingerprint = ?, fencing_token = ?, "
				+ "locked_until = " + nowPlusMillis + ", created_at = " + now + ", completed_at = NULL, expires_at = "
				+ nowPlusMillis + ", response_status = NULL, response_headers = NULL, response_body = NULL WHERE "
				+ KEY_MATCH + " AND fencing_token = ? AND (expires_at <= " + now
				+ " OR (status = 'IN_PROGRESS' AND locked_until <= " + now + "))";
		this.complete = "UPDATE " + TABLE + " SET status = 'COMPLETED', response_status = ?, response_headers = ?, "
				+ "response_body = ?, completed_at = " + now + ", expires_at = " + nowPlusMillis
				+ ", locked_until = NULL WHERE " + KEY_MATCH + " AND fencing_token = ? AND status = 'IN_PROGRESS'";
		this.release = "DELETE FROM " + TABLE + " WHERE " + KEY_MATCH
				+ " AND fencing_token = ? AND status = 'IN_PROGRESS'";
		this.extendLease = "UPDATE " + TABLE + " SET locked_until = " + nowPlusMillis + " WHERE " + KEY_MATCH
				+ " AND fencing_token = ? AND status = 'IN_PROGRESS'";
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
					"GREATEST(0, CAST(EXTRACT(EPOCH FROM (locked_until - clock_timestamp())) * 1000 AS BIGINT))");
			case H2 -> new IdempotencySql(platform, "CURRENT_TIMESTAMP",
					"DATEADD(MILLISECOND, ?, CURRENT_TIMESTAMP)",
					"GREATEST(0, DATEDIFF(MILLISECOND, CURRENT_TIMESTAMP, locked_until))");
		};
	}

	/**
	 * The insert on PostgreSQL is {@code ON CONFLICT DO NOTHING}, so that it never aborts an
	 * enclosing transaction, and returns the existing record in the same round trip.
	 */
	private static String postgresClaim(String insert, String recordColumns) {
		return "WITH claimed AS (" + insert + " ON CONFLICT (tenant_id, operation, idempotency_key) DO NOTHING "
				+ "RETURNING 1) SELECT TRUE AS claimed, NULL::varchar AS status, NULL::varchar AS request_fingerprint, "
				+ "NULL::uuid AS fencing_token, NULL::timestamptz AS locked_until, NULL::timestamptz AS created_at, "
				+ "NULL::timestamptz AS completed_at, NULL::timestamptz AS expires_at, NULL::integer AS response_status, "
				+ "NULL::text AS response_headers, NULL::bytea AS response_body, FALSE AS expired, "
				+ "FALSE AS lease_expired, CAST(0 AS BIGINT) AS lease_remaining_ms FROM claimed UNION ALL SELECT FALSE, "
				+ recordColumns + " FROM " + TABLE + " WHERE " + KEY_MATCH + " AND NOT EXISTS (SELECT 1 FROM claimed)";
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
	 * Parameters: tenant, operation, key, fingerprint, token, lease ms, ttl ms; on PostgreSQL then
	 * tenant, operation, key again.
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

}
