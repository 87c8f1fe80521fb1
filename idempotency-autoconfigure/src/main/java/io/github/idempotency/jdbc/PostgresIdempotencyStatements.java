package io.github.idempotency.jdbc;

/**
 * The statements on PostgreSQL. The request path reads {@code clock_timestamp()}, the time at the
 * moment it is read; statements that scan read {@code statement_timestamp()}, stable for the whole
 * statement, so that the planner can use it as an index bound.
 */
final class PostgresIdempotencyStatements extends IdempotencyStatements {

	@Override
	boolean claimReturnsExisting() {
		return true;
	}

	/**
	 * Reads the record first and inserts only when there is none, so that a replay costs one index
	 * read and no write; the insert is {@code ON CONFLICT DO NOTHING}, so that a race never aborts
	 * an enclosing transaction (it then returns no row, and is retried). A record in progress whose
	 * lease lives keeps its key past its expiry: the TTL bounds how long a response is replayed,
	 * never how long an operation may run.
	 * <p>
	 * The claim commits synchronously: the operation may act outside the database before
	 * anything else of it commits, so a claim lost in a crash would let a retry run it again.
	 */
	@Override
	String claim() {
		return """
				WITH existing AS (
				  SELECT status, request_fingerprint, fencing_token, locked_until, created_at, completed_at,
				    expires_at, response_status, response_headers, response_body, attempts, last_failure,
				    last_failure_at,
				    (expires_at <= clock_timestamp()
				      AND (status <> 'IN_PROGRESS' OR locked_until <= clock_timestamp())) AS expired,
				    (locked_until IS NOT NULL AND locked_until <= clock_timestamp()) AS lease_expired,
				    GREATEST(0, CAST(EXTRACT(EPOCH FROM (locked_until - clock_timestamp())) * 1000 AS BIGINT))
				      AS lease_remaining_ms
				  FROM idempotency_record
				  WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				), claimed AS (
				  INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, status, request_fingerprint,
				    fencing_token, locked_until, created_at, expires_at)
				  SELECT :tenant, :operation, :key, 'IN_PROGRESS', :fingerprint, :token,
				    clock_timestamp() + (:leaseMillis * INTERVAL '1 millisecond'), clock_timestamp(),
				    clock_timestamp() + (:ttlMillis * INTERVAL '1 millisecond')
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
				""";
	}

	@Override
	String select() {
		return """
				SELECT FALSE AS claimed, status, request_fingerprint, fencing_token, locked_until, created_at,
				  completed_at, expires_at, response_status, response_headers, response_body, attempts, last_failure,
				  last_failure_at,
				  (expires_at <= clock_timestamp()
				    AND (status <> 'IN_PROGRESS' OR locked_until <= clock_timestamp())) AS expired,
				  (locked_until IS NOT NULL AND locked_until <= clock_timestamp()) AS lease_expired,
				  GREATEST(0, CAST(EXTRACT(EPOCH FROM (locked_until - clock_timestamp())) * 1000 AS BIGINT))
				    AS lease_remaining_ms
				FROM idempotency_record
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				""";
	}

	/**
	 * Takes over an expired record, a released one or a run-out lease; the take-over of a lease
	 * records it as the last failure, and a claim of an expired record ({@code :attempt} 1)
	 * forgets the failures of the record it replaces.
	 */
	@Override
	String takeOver() {
		return """
				UPDATE idempotency_record
				SET status = 'IN_PROGRESS', request_fingerprint = :fingerprint, fencing_token = :newToken,
				  locked_until = clock_timestamp() + (:leaseMillis * INTERVAL '1 millisecond'),
				  created_at = clock_timestamp(), completed_at = NULL,
				  expires_at = clock_timestamp() + (:ttlMillis * INTERVAL '1 millisecond'),
				  response_status = NULL, response_headers = NULL, response_body = NULL, attempts = :attempt,
				  last_failure = CASE WHEN :attempt = 1 THEN NULL WHEN status = 'IN_PROGRESS' THEN 'lease expired'
				    ELSE last_failure END,
				  last_failure_at = CASE WHEN :attempt = 1 THEN NULL WHEN status = 'IN_PROGRESS' THEN clock_timestamp()
				    ELSE last_failure_at END
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				  AND fencing_token = :oldToken
				  AND ((expires_at <= clock_timestamp()
				      AND (status <> 'IN_PROGRESS' OR locked_until <= clock_timestamp()))
				    OR (status = 'IN_PROGRESS' AND locked_until <= clock_timestamp()) OR status = 'RELEASED')
				""";
	}

	/**
	 * Locks the expired record, takes it over and archives what it held, all in one statement: a
	 * concurrent claim of the same key waits on the lock, then finds a new token and archives
	 * nothing.
	 */
	@Override
	String takeOverArchiving() {
		return """
				WITH old AS (
				  SELECT tenant_id, operation, idempotency_key, status, request_fingerprint, fencing_token, created_at,
				    completed_at, expires_at, response_status, response_headers, response_body
				  FROM idempotency_record
				  WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				    AND fencing_token = :oldToken AND expires_at <= clock_timestamp()
				    AND (status <> 'IN_PROGRESS' OR locked_until <= clock_timestamp())
				  FOR UPDATE
				), taken AS (
				  UPDATE idempotency_record r
				  SET status = 'IN_PROGRESS', request_fingerprint = :fingerprint, fencing_token = :newToken,
				    locked_until = clock_timestamp() + (:leaseMillis * INTERVAL '1 millisecond'),
				    created_at = clock_timestamp(), completed_at = NULL,
				    expires_at = clock_timestamp() + (:ttlMillis * INTERVAL '1 millisecond'),
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
				    completed_at, expires_at, response_status, response_headers, response_body, clock_timestamp()
				  FROM old
				  WHERE EXISTS (SELECT 1 FROM taken) AND old.status <> 'RELEASED'
				)
				SELECT count(*) FROM taken
				""";
	}

	@Override
	String archiveRecord() {
		return """
				INSERT INTO idempotency_record_archive (tenant_id, operation, idempotency_key, status,
				  request_fingerprint, fencing_token, created_at, completed_at, expires_at, response_status,
				  response_headers, response_body, archived_at)
				VALUES (:tenant, :operation, :key, :status, :fingerprint, :token, :createdAt, :completedAt, :expiresAt,
				  :responseStatus, :responseHeaders, :responseBody, clock_timestamp())
				""";
	}

	@Override
	String complete() {
		return """
				UPDATE idempotency_record
				SET status = 'COMPLETED', response_status = :responseStatus, response_headers = :responseHeaders,
				  response_body = :responseBody, completed_at = clock_timestamp(),
				  expires_at = clock_timestamp() + (:ttlMillis * INTERVAL '1 millisecond'), locked_until = NULL
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				  AND fencing_token = :token AND status = 'IN_PROGRESS'
				""";
	}

	@Override
	String extendLease() {
		return """
				UPDATE idempotency_record
				SET locked_until = clock_timestamp() + (:leaseMillis * INTERVAL '1 millisecond')
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				  AND fencing_token = :token AND status = 'IN_PROGRESS'
				""";
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
		return """
				WITH batch AS (
				  SELECT tenant_id, operation, idempotency_key
				  FROM idempotency_record
				  WHERE status <> 'IN_PROGRESS' AND expires_at <= statement_timestamp()
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
				    completed_at, expires_at, response_status, response_headers, response_body, statement_timestamp()
				  FROM deleted
				  WHERE operation = ANY (:archivedOperations) AND status <> 'RELEASED'
				  RETURNING operation
				), references_archived AS (
				  INSERT INTO idempotency_reference_archive (tenant_id, operation, idempotency_key, reference_name,
				    reference_value, created_at, archived_at)
				  SELECT r.tenant_id, r.operation, r.idempotency_key, r.reference_name, r.reference_value, r.created_at,
				    statement_timestamp()
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
				""";
	}

	/**
	 * As {@link #purgeExpired()}, for records left in progress long past their lease.
	 */
	@Override
	String purgeStuck() {
		return """
				WITH batch AS (
				  SELECT tenant_id, operation, idempotency_key
				  FROM idempotency_record
				  WHERE status = 'IN_PROGRESS'
				    AND locked_until <= statement_timestamp() - (:stuckAfterMillis * INTERVAL '1 millisecond')
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
				    completed_at, expires_at, response_status, response_headers, response_body, statement_timestamp()
				  FROM deleted
				  WHERE operation = ANY (:archivedOperations) AND status <> 'RELEASED'
				  RETURNING operation
				), references_archived AS (
				  INSERT INTO idempotency_reference_archive (tenant_id, operation, idempotency_key, reference_name,
				    reference_value, created_at, archived_at)
				  SELECT r.tenant_id, r.operation, r.idempotency_key, r.reference_name, r.reference_value, r.created_at,
				    statement_timestamp()
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
				""";
	}

	@Override
	String archiveByKey() {
		return """
				INSERT INTO idempotency_record_archive (tenant_id, operation, idempotency_key, status,
				  request_fingerprint, fencing_token, created_at, completed_at, expires_at, response_status,
				  response_headers, response_body, archived_at)
				SELECT tenant_id, operation, idempotency_key, status, request_fingerprint, fencing_token, created_at,
				  completed_at, expires_at, response_status, response_headers, response_body, clock_timestamp()
				FROM idempotency_record
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				  AND status <> 'RELEASED'
				""";
	}

	@Override
	String countByOperation() {
		return """
				SELECT operation, status, count(*) AS records,
				  count(CASE WHEN expires_at <= statement_timestamp()
				    AND (status <> 'IN_PROGRESS' OR locked_until <= statement_timestamp()) THEN 1 END) AS expired,
				  count(CASE WHEN status = 'IN_PROGRESS' AND locked_until <= statement_timestamp() THEN 1 END) AS stuck
				FROM idempotency_record
				GROUP BY operation, status
				""";
	}

	@Override
	String describe() {
		return """
				SELECT status, request_fingerprint, locked_until, created_at, completed_at, expires_at,
				  response_status, OCTET_LENGTH(response_body) AS response_bytes, attempts, last_failure,
				  last_failure_at,
				  (expires_at <= clock_timestamp()
				    AND (status <> 'IN_PROGRESS' OR locked_until <= clock_timestamp())) AS expired,
				  (locked_until IS NOT NULL AND locked_until <= clock_timestamp()) AS lease_expired
				FROM idempotency_record
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				""";
	}

	@Override
	String release() {
		return """
				UPDATE idempotency_record
				SET status = 'RELEASED', locked_until = NULL, last_failure = :failure,
				  last_failure_at = clock_timestamp(), expires_at = clock_timestamp() + (expires_at - created_at)
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				  AND fencing_token = :token AND status = 'IN_PROGRESS'
				""";
	}

	/**
	 * Reads the partial index of keys that ran more than once, most attempts first.
	 */
	@Override
	String repeatedFailures() {
		return """
				SELECT operation, idempotency_key, status, attempts, last_failure, last_failure_at
				FROM idempotency_record
				WHERE attempts > 1 AND (CAST(:operation AS VARCHAR) IS NULL OR operation = :operation)
				  AND NOT (expires_at <= statement_timestamp()
				    AND (status <> 'IN_PROGRESS' OR locked_until <= statement_timestamp()))
				ORDER BY attempts DESC, last_failure_at DESC NULLS LAST
				LIMIT :limit
				""";
	}

	/**
	 * An upsert whose update is conditional: a concurrent advance of the same scope waits on the
	 * row, then compares with the number it committed, so that the highest number always wins.
	 */
	@Override
	String advanceSequence() {
		return """
				INSERT INTO idempotency_sequence (tenant_id, scope, highest_sequence, updated_at, expires_at)
				VALUES (:tenant, :scope, :sequence, clock_timestamp(),
				  clock_timestamp() + (:ttlMillis * INTERVAL '1 millisecond'))
				ON CONFLICT (tenant_id, scope) DO UPDATE
				SET highest_sequence = EXCLUDED.highest_sequence, updated_at = EXCLUDED.updated_at,
				  expires_at = EXCLUDED.expires_at
				WHERE idempotency_sequence.highest_sequence <= EXCLUDED.highest_sequence
				  OR idempotency_sequence.expires_at <= clock_timestamp()
				""";
	}

	@Override
	String selectSequence() {
		return """
				SELECT highest_sequence
				FROM idempotency_sequence
				WHERE tenant_id = :tenant AND scope = :scope AND expires_at > clock_timestamp()
				""";
	}

	@Override
	String purgeExpiredSequences() {
		return """
				WITH batch AS (
				  SELECT tenant_id, scope
				  FROM idempotency_sequence
				  WHERE expires_at <= statement_timestamp()
				  LIMIT :batchSize
				  FOR UPDATE SKIP LOCKED
				)
				DELETE FROM idempotency_sequence s
				USING batch b
				WHERE s.tenant_id = b.tenant_id AND s.scope = b.scope
				""";
	}

	@Override
	String addReference() {
		return """
				INSERT INTO idempotency_reference (tenant_id, operation, idempotency_key, reference_name,
				  reference_value, created_at, expires_at)
				VALUES (:tenant, :operation, :key, :name, :value, clock_timestamp(),
				  clock_timestamp() + (:ttlMillis * INTERVAL '1 millisecond'))
				ON CONFLICT (tenant_id, operation, idempotency_key, reference_name, reference_value) DO UPDATE
				SET expires_at = GREATEST(idempotency_reference.expires_at, EXCLUDED.expires_at)
				""";
	}

	@Override
	String archiveReferencesByKey() {
		return """
				INSERT INTO idempotency_reference_archive (tenant_id, operation, idempotency_key, reference_name,
				  reference_value, created_at, archived_at)
				SELECT tenant_id, operation, idempotency_key, reference_name, reference_value, created_at,
				  clock_timestamp()
				FROM idempotency_reference
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				""";
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
				  WHERE r.expires_at <= statement_timestamp()
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
				  SELECT tenant_id, operation, idempotency_key, reference_name, reference_value, created_at,
				    statement_timestamp()
				  FROM deleted
				  WHERE operation = ANY (:archivedOperations)
				)
				SELECT count(*) FROM deleted
				""";
	}

	@Override
	String archiveOrphanReferences() {
		throw new UnsupportedOperationException("PostgreSQL purges orphan references in one statement");
	}

	@Override
	String deleteOrphanReferences() {
		throw new UnsupportedOperationException("PostgreSQL purges orphan references in one statement");
	}

	@Override
	String releaseStuck() {
		return """
				DELETE FROM idempotency_record
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				  AND status = 'IN_PROGRESS' AND (:force OR locked_until <= clock_timestamp())
				""";
	}

	@Override
	String countStuck() {
		return """
				SELECT count(*)
				FROM idempotency_record
				WHERE status = 'IN_PROGRESS' AND locked_until <= statement_timestamp()
				""";
	}

}
