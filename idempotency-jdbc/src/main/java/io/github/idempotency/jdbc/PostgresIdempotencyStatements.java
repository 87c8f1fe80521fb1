package io.github.idempotency.jdbc;

/**
 * The statements on PostgreSQL. The request path reads {@code clock_timestamp()}, the time at the
 * moment it is read; statements that scan read {@code statement_timestamp()}, stable for the whole
 * statement, so that the planner can use it as an index bound. What PostgreSQL writes otherwise:
 * the claim reads and inserts in one statement, and an archiving take-over and a purge batch are
 * one statement each, which lock with {@code FOR UPDATE SKIP LOCKED}.
 */
final class PostgresIdempotencyStatements extends IdempotencyStatements {

	@Override
	String now() {
		return "clock_timestamp()";
	}

	@Override
	String statementTime() {
		return "statement_timestamp()";
	}

	@Override
	String plusMillis(String time, String millis) {
		return time + " + (" + millis + " * INTERVAL '1 millisecond')";
	}

	@Override
	String millisBetween(String from, String to) {
		return "CAST(EXTRACT(EPOCH FROM (" + to + " - " + from + ")) * 1000 AS BIGINT)";
	}

	@Override
	boolean claimReturnsExisting() {
		return true;
	}

	/**
	 * Reads the record first and inserts only when there is none, so that a replay costs one index
	 * read and no write; the insert is {@code ON CONFLICT DO NOTHING}, so that a race never aborts
	 * an enclosing transaction (it then returns no row, and is retried).
	 * <p>
	 * The claim commits synchronously: the operation may act outside the database before
	 * anything else of it commits, so a claim lost in a crash would let a retry run it again.
	 */
	@Override
	String claim() {
		String now = now();
		return """
				WITH existing AS (
				  SELECT %s
				  FROM idempotency_record
				  WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				), claimed AS (
				  INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, status, request_fingerprint,
				    fencing_token, locked_until, created_at, expires_at)
				  SELECT :tenant, :operation, :key, 'IN_PROGRESS', :fingerprint, :token, %s, %s, %s
				  WHERE NOT EXISTS (SELECT 1 FROM existing)
				  ON CONFLICT (tenant_id, operation, idempotency_key) DO NOTHING
				  RETURNING 1
				)
				SELECT TRUE AS claimed, NULL::varchar AS status, NULL::varchar AS request_fingerprint,
				  NULL::uuid AS fencing_token, NULL::timestamptz AS locked_until, NULL::timestamptz AS created_at,
				  NULL::timestamptz AS completed_at, NULL::timestamptz AS expires_at, NULL::integer AS response_status,
				  NULL::text AS response_headers, NULL::bytea AS response_body, NULL::integer AS attempts,
				  NULL::varchar AS last_failure, NULL::timestamptz AS last_failure_at, FALSE AS expired,
				  FALSE AS lease_expired, CAST(0 AS BIGINT) AS lease_remaining_ms
				FROM claimed
				UNION ALL
				SELECT FALSE, existing.* FROM existing
				""".formatted(recordColumns(now), plusMillis(now, ":leaseMillis"), now, plusMillis(now, ":ttlMillis"));
	}

	/**
	 * As {@link #claim()} for many keys at once: the rows of the claims are a {@code VALUES} list,
	 * the records that hold their keys are read in one join, and the others inserted in one
	 * {@code INSERT … ON CONFLICT DO NOTHING}, in key order, so that two batches that share keys
	 * take their locks in one order; the claim of a key that another claim of the statement or a
	 * concurrent one inserted first answers neither claimed nor a record.
	 */
	@Override
	String claimBatch(int size) {
		String now = now();
		String rows = rows(size, "fingerprint varchar", "token uuid", "leaseMillis bigint", "ttlMillis bigint");
		return """
				WITH input (idx, in_tenant, in_operation, in_key, in_fingerprint, in_token, in_lease, in_ttl) AS (
				  VALUES %s
				), existing AS (
				  SELECT input.idx, %s
				  FROM input JOIN idempotency_record
				    ON tenant_id = in_tenant AND operation = in_operation AND idempotency_key = in_key
				), claimed AS (
				  INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, status, request_fingerprint,
				    fencing_token, locked_until, created_at, expires_at)
				  SELECT in_tenant, in_operation, in_key, 'IN_PROGRESS', in_fingerprint, in_token, %s, %s, %s
				  FROM input
				  WHERE NOT EXISTS (SELECT 1 FROM existing WHERE existing.idx = input.idx)
				  ORDER BY in_tenant, in_operation, in_key
				  ON CONFLICT (tenant_id, operation, idempotency_key) DO NOTHING
				  RETURNING fencing_token
				)
				SELECT input.idx, claimed.fencing_token IS NOT NULL AS claimed, existing.status,
				  existing.request_fingerprint, existing.fencing_token, existing.locked_until, existing.created_at,
				  existing.completed_at, existing.expires_at, existing.response_status, existing.response_headers,
				  existing.response_body, existing.attempts, existing.last_failure, existing.last_failure_at,
				  existing.expired, existing.lease_expired, existing.lease_remaining_ms
				FROM input
				LEFT JOIN claimed ON claimed.fencing_token = input.in_token
				LEFT JOIN existing ON existing.idx = input.idx
				ORDER BY input.idx
				""".formatted(rows, recordColumns(now), plusMillis(now, "in_lease"), now, plusMillis(now, "in_ttl"));
	}

	/**
	 * As {@link #complete()} for many records at once, their rows a {@code VALUES} list joined to
	 * the records they complete.
	 */
	@Override
	String completeBatch(int size) {
		String now = now();
		String rows = rows(size, "token uuid", "responseStatus integer", "responseHeaders text", "responseBody bytea",
				"ttlMillis bigint");
		return """
				UPDATE idempotency_record
				SET status = 'COMPLETED', response_status = in_status, response_headers = in_headers,
				  response_body = in_body, completed_at = %s, expires_at = %s, locked_until = NULL
				FROM (VALUES %s) AS input (idx, in_tenant, in_operation, in_key, in_token, in_status, in_headers,
				  in_body, in_ttl)
				WHERE tenant_id = in_tenant AND operation = in_operation AND idempotency_key = in_key
				  AND fencing_token = in_token AND status = 'IN_PROGRESS'
				RETURNING idx
				""".formatted(now, plusMillis(now, "in_ttl"), rows);
	}

	/**
	 * The {@code VALUES} rows of a batch statement: per row {@code i}, its index, the key
	 * ({@code :tenant<i>}, {@code :operation<i>}, {@code :key<i>}), then the given parameters
	 * ({@code "name type"}), each cast to its type.
	 */
	private static String rows(int size, String... parameters) {
		StringBuilder rows = new StringBuilder();
		for (int i = 0; i < size; i++) {
			rows.append((i > 0) ? ",\n    " : "").append("(").append(i);
			for (String parameter : parameters(parameters)) {
				String[] nameAndType = parameter.split(" ");
				rows.append(", CAST(:").append(nameAndType[0]).append(i).append(" AS ").append(nameAndType[1]).append(")");
			}
			rows.append(")");
		}
		return rows.toString();
	}

	private static String[] parameters(String... parameters) {
		String[] all = new String[parameters.length + 3];
		all[0] = "tenant varchar";
		all[1] = "operation varchar";
		all[2] = "key varchar";
		System.arraycopy(parameters, 0, all, 3, parameters.length);
		return all;
	}

	/**
	 * Locks the expired record, takes it over and archives what it held, all in one statement: a
	 * concurrent claim of the same key waits on the lock, then finds a new token and archives
	 * nothing.
	 */
	@Override
	String takeOverArchiving() {
		String now = now();
		return """
				WITH old AS (
				  SELECT tenant_id, operation, idempotency_key, status, request_fingerprint, fencing_token, created_at,
				    completed_at, expires_at, response_status, response_headers, response_body
				  FROM idempotency_record
				  WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				    AND fencing_token = :oldToken AND %4$s
				  FOR UPDATE
				), taken AS (
				  UPDATE idempotency_record r
				  SET status = 'IN_PROGRESS', request_fingerprint = :fingerprint, fencing_token = :newToken,
				    locked_until = %2$s, created_at = %1$s, completed_at = NULL, expires_at = %3$s,
				    response_status = NULL, response_headers = NULL, response_body = NULL, attempts = 1,
				    last_failure = NULL, last_failure_at = NULL
				  FROM old
				  WHERE r.tenant_id = old.tenant_id AND r.operation = old.operation
				    AND r.idempotency_key = old.idempotency_key
				  RETURNING 1
				), archived AS (
				  INSERT INTO idempotency_record_archive (tenant_id, operation, idempotency_key, status,
				    request_fingerprint, fencing_token, created_at, completed_at, expires_at, response_status,
				    response_headers, response_body, archived_at)
				  SELECT tenant_id, operation, idempotency_key, status, request_fingerprint, fencing_token, created_at,
				    completed_at, expires_at, response_status, response_headers, response_body, %1$s
				  FROM old
				  WHERE EXISTS (SELECT 1 FROM taken) AND old.status <> 'RELEASED'
				)
				SELECT count(*) FROM taken
				""".formatted(now, plusMillis(now, ":leaseMillis"), plusMillis(now, ":ttlMillis"), expired(now));
	}

	@Override
	boolean purgesInOneStatement() {
		return true;
	}

	/**
	 * Locks up to a batch of expired records, skipping those a claim or another purger holds,
	 * deletes them and their references and archives those of archived operations, in one
	 * statement; answers the counts per operation.
	 */
	@Override
	String purgeExpired() {
		return purgeBatch(expiredForPurge());
	}

	/**
	 * As {@link #purgeExpired()}, for records left in progress long past their lease.
	 */
	@Override
	String purgeStuck() {
		return purgeBatch(stuckForPurge());
	}

	private String purgeBatch(String condition) {
		return """
				WITH batch AS (
				  SELECT tenant_id, operation, idempotency_key
				  FROM idempotency_record
				  WHERE %1$s
				  LIMIT :batchSize
				  FOR UPDATE SKIP LOCKED
				), deleted AS (
				  DELETE FROM idempotency_record r
				  USING batch b
				  WHERE r.tenant_id = b.tenant_id AND r.operation = b.operation
				    AND r.idempotency_key = b.idempotency_key
				  RETURNING r.*
				), archived AS (
				  INSERT INTO idempotency_record_archive (tenant_id, operation, idempotency_key, status,
				    request_fingerprint, fencing_token, created_at, completed_at, expires_at, response_status,
				    response_headers, response_body, archived_at)
				  SELECT tenant_id, operation, idempotency_key, status, request_fingerprint, fencing_token, created_at,
				    completed_at, expires_at, response_status, response_headers, response_body, %2$s
				  FROM deleted
				  WHERE operation = ANY (:archivedOperations) AND status <> 'RELEASED'
				  RETURNING operation
				), references_archived AS (
				  INSERT INTO idempotency_reference_archive (tenant_id, operation, idempotency_key, reference_name,
				    reference_value, created_at, archived_at)
				  SELECT r.tenant_id, r.operation, r.idempotency_key, r.reference_name, r.reference_value, r.created_at,
				    %2$s
				  FROM idempotency_reference r
				  JOIN deleted d ON r.tenant_id = d.tenant_id AND r.operation = d.operation
				    AND r.idempotency_key = d.idempotency_key
				  WHERE d.operation = ANY (:archivedOperations)
				), references_deleted AS (
				  DELETE FROM idempotency_reference r
				  USING deleted d
				  WHERE r.tenant_id = d.tenant_id AND r.operation = d.operation AND r.idempotency_key = d.idempotency_key
				)
				SELECT d.operation, count(*) AS deleted,
				  (SELECT count(*) FROM archived a WHERE a.operation = d.operation) AS archived
				FROM deleted d
				GROUP BY d.operation
				""".formatted(condition, statementTime());
	}

	/**
	 * An upsert whose update is conditional: a concurrent advance of the same scope waits on the
	 * row, then compares with the number it committed, so that the highest number always wins.
	 */
	@Override
	String advanceSequence() {
		String now = now();
		return """
				INSERT INTO idempotency_sequence (tenant_id, scope, highest_sequence, updated_at, expires_at)
				VALUES (:tenant, :scope, :sequence, %s, %s)
				ON CONFLICT (tenant_id, scope) DO UPDATE
				SET highest_sequence = EXCLUDED.highest_sequence, updated_at = EXCLUDED.updated_at,
				  expires_at = EXCLUDED.expires_at
				WHERE idempotency_sequence.highest_sequence <= EXCLUDED.highest_sequence
				  OR idempotency_sequence.expires_at <= %s
				""".formatted(now, plusMillis(now, ":ttlMillis"), now);
	}

	@Override
	String purgeExpiredSequences() {
		return """
				WITH batch AS (
				  SELECT tenant_id, scope
				  FROM idempotency_sequence
				  WHERE expires_at <= %s
				  LIMIT :batchSize
				  FOR UPDATE SKIP LOCKED
				)
				DELETE FROM idempotency_sequence s
				USING batch b
				WHERE s.tenant_id = b.tenant_id AND s.scope = b.scope
				""".formatted(statementTime());
	}

	@Override
	String addReference() {
		String now = now();
		return """
				INSERT INTO idempotency_reference (tenant_id, operation, idempotency_key, reference_name,
				  reference_value, created_at, expires_at)
				VALUES (:tenant, :operation, :key, :name, :value, %s, %s)
				ON CONFLICT (tenant_id, operation, idempotency_key, reference_name, reference_value) DO UPDATE
				SET expires_at = GREATEST(idempotency_reference.expires_at, EXCLUDED.expires_at)
				""".formatted(now, plusMillis(now, ":ttlMillis"));
	}

	/**
	 * Locks a batch of expired references without a record, skipping those another purger holds,
	 * deletes them and archives those of archived operations.
	 */
	@Override
	String purgeOrphanReferences() {
		return """
				WITH batch AS (
				  SELECT r.tenant_id, r.operation, r.idempotency_key, r.reference_name, r.reference_value
				  FROM idempotency_reference r
				  WHERE r.expires_at <= %1$s
				    AND NOT EXISTS (SELECT 1 FROM idempotency_record rec WHERE rec.tenant_id = r.tenant_id
				      AND rec.operation = r.operation AND rec.idempotency_key = r.idempotency_key)
				  LIMIT :batchSize
				  FOR UPDATE SKIP LOCKED
				), deleted AS (
				  DELETE FROM idempotency_reference r
				  USING batch b
				  WHERE r.tenant_id = b.tenant_id AND r.operation = b.operation AND r.idempotency_key = b.idempotency_key
				    AND r.reference_name = b.reference_name AND r.reference_value = b.reference_value
				  RETURNING r.*
				), archived AS (
				  INSERT INTO idempotency_reference_archive (tenant_id, operation, idempotency_key, reference_name,
				    reference_value, created_at, archived_at)
				  SELECT tenant_id, operation, idempotency_key, reference_name, reference_value, created_at, %1$s
				  FROM deleted
				  WHERE operation = ANY (:archivedOperations)
				)
				SELECT count(*) FROM deleted
				""".formatted(statementTime());
	}

}
