package io.github.idempotency.jdbc;

import org.jspecify.annotations.Nullable;

/**
 * The statements on H2, on its {@code CURRENT_TIMESTAMP}. A claim that finds the key taken fails
 * with a duplicate key and reads the record next; an archiving take-over and a purge batch take
 * two statements each.
 */
final class H2IdempotencyStatements extends IdempotencyStatements {

	@Override
	boolean claimReturnsExisting() {
		return false;
	}

	@Override
	String claim() {
		return """
				INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, status, request_fingerprint,
				  fencing_token, locked_until, created_at, expires_at)
				VALUES (:tenant, :operation, :key, 'IN_PROGRESS', :fingerprint, :token,
				  DATEADD(MILLISECOND, :leaseMillis, CURRENT_TIMESTAMP), CURRENT_TIMESTAMP,
				  DATEADD(MILLISECOND, :ttlMillis, CURRENT_TIMESTAMP))
				""";
	}

	/**
	 * A record in progress whose lease lives keeps its key past its expiry: the TTL bounds how
	 * long a response is replayed, never how long an operation may run.
	 */
	@Override
	String select() {
		return """
				SELECT FALSE AS claimed, status, request_fingerprint, fencing_token, locked_until, created_at,
				  completed_at, expires_at, response_status, response_headers, response_body, attempts, last_failure,
				  last_failure_at,
				  (expires_at <= CURRENT_TIMESTAMP
				    AND (status <> 'IN_PROGRESS' OR locked_until <= CURRENT_TIMESTAMP)) AS expired,
				  (locked_until IS NOT NULL AND locked_until <= CURRENT_TIMESTAMP) AS lease_expired,
				  GREATEST(0, DATEDIFF(MILLISECOND, CURRENT_TIMESTAMP, locked_until)) AS lease_remaining_ms
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
				  locked_until = DATEADD(MILLISECOND, :leaseMillis, CURRENT_TIMESTAMP),
				  created_at = CURRENT_TIMESTAMP, completed_at = NULL,
				  expires_at = DATEADD(MILLISECOND, :ttlMillis, CURRENT_TIMESTAMP),
				  response_status = NULL, response_headers = NULL, response_body = NULL, attempts = :attempt,
				  last_failure = CASE WHEN :attempt = 1 THEN NULL WHEN status = 'IN_PROGRESS' THEN 'lease expired'
				    ELSE last_failure END,
				  last_failure_at = CASE WHEN :attempt = 1 THEN NULL WHEN status = 'IN_PROGRESS' THEN CURRENT_TIMESTAMP
				    ELSE last_failure_at END
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				  AND fencing_token = :oldToken
				  AND ((expires_at <= CURRENT_TIMESTAMP
				      AND (status <> 'IN_PROGRESS' OR locked_until <= CURRENT_TIMESTAMP))
				    OR (status = 'IN_PROGRESS' AND locked_until <= CURRENT_TIMESTAMP) OR status = 'RELEASED')
				""";
	}

	@Override
	@Nullable String takeOverArchiving() {
		return null;
	}

	@Override
	String archiveRecord() {
		return """
				INSERT INTO idempotency_record_archive (tenant_id, operation, idempotency_key, status,
				  request_fingerprint, fencing_token, created_at, completed_at, expires_at, response_status,
				  response_headers, response_body, archived_at)
				VALUES (:tenant, :operation, :key, :status, :fingerprint, :token, :createdAt, :completedAt, :expiresAt,
				  :responseStatus, :responseHeaders, :responseBody, CURRENT_TIMESTAMP)
				""";
	}

	@Override
	String complete() {
		return """
				UPDATE idempotency_record
				SET status = 'COMPLETED', response_status = :responseStatus, response_headers = :responseHeaders,
				  response_body = :responseBody, completed_at = CURRENT_TIMESTAMP,
				  expires_at = DATEADD(MILLISECOND, :ttlMillis, CURRENT_TIMESTAMP), locked_until = NULL
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				  AND fencing_token = :token AND status = 'IN_PROGRESS'
				""";
	}

	@Override
	String extendLease() {
		return """
				UPDATE idempotency_record
				SET locked_until = DATEADD(MILLISECOND, :leaseMillis, CURRENT_TIMESTAMP)
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				  AND fencing_token = :token AND status = 'IN_PROGRESS'
				""";
	}

	@Override
	boolean purgesInOneStatement() {
		return false;
	}

	/**
	 * Locks the keys of up to a batch of expired records, skipping those held elsewhere; they are
	 * then archived and deleted by key in the same transaction.
	 */
	@Override
	String purgeExpired() {
		return """
				SELECT tenant_id, operation, idempotency_key
				FROM idempotency_record
				WHERE status <> 'IN_PROGRESS' AND expires_at <= CURRENT_TIMESTAMP
				LIMIT :batchSize
				FOR UPDATE SKIP LOCKED
				""";
	}

	/**
	 * As {@link #purgeExpired()}, for records left in progress long past their lease.
	 */
	@Override
	String purgeStuck() {
		return """
				SELECT tenant_id, operation, idempotency_key
				FROM idempotency_record
				WHERE status = 'IN_PROGRESS'
				  AND locked_until <= DATEADD(MILLISECOND, -:stuckAfterMillis, CURRENT_TIMESTAMP)
				LIMIT :batchSize
				FOR UPDATE SKIP LOCKED
				""";
	}

	@Override
	String archiveByKey() {
		return """
				INSERT INTO idempotency_record_archive (tenant_id, operation, idempotency_key, status,
				  request_fingerprint, fencing_token, created_at, completed_at, expires_at, response_status,
				  response_headers, response_body, archived_at)
				SELECT tenant_id, operation, idempotency_key, status, request_fingerprint, fencing_token, created_at,
				  completed_at, expires_at, response_status, response_headers, response_body, CURRENT_TIMESTAMP
				FROM idempotency_record
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				  AND status <> 'RELEASED'
				""";
	}

	@Override
	String countByOperation() {
		return """
				SELECT operation, status, count(*) AS records,
				  count(CASE WHEN expires_at <= CURRENT_TIMESTAMP
				    AND (status <> 'IN_PROGRESS' OR locked_until <= CURRENT_TIMESTAMP) THEN 1 END) AS expired,
				  count(CASE WHEN status = 'IN_PROGRESS' AND locked_until <= CURRENT_TIMESTAMP THEN 1 END) AS stuck
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
				  (expires_at <= CURRENT_TIMESTAMP
				    AND (status <> 'IN_PROGRESS' OR locked_until <= CURRENT_TIMESTAMP)) AS expired,
				  (locked_until IS NOT NULL AND locked_until <= CURRENT_TIMESTAMP) AS lease_expired
				FROM idempotency_record
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				""";
	}

	@Override
	String release() {
		return """
				UPDATE idempotency_record
				SET status = 'RELEASED', locked_until = NULL, last_failure = :failure,
				  last_failure_at = CURRENT_TIMESTAMP,
				  expires_at = DATEADD(MILLISECOND, DATEDIFF(MILLISECOND, created_at, expires_at), CURRENT_TIMESTAMP)
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				  AND fencing_token = :token AND status = 'IN_PROGRESS'
				""";
	}

	@Override
	String repeatedFailures() {
		return """
				SELECT operation, idempotency_key, status, attempts, last_failure, last_failure_at
				FROM idempotency_record
				WHERE attempts > 1 AND (CAST(:operation AS VARCHAR) IS NULL OR operation = :operation)
				  AND NOT (expires_at <= CURRENT_TIMESTAMP
				    AND (status <> 'IN_PROGRESS' OR locked_until <= CURRENT_TIMESTAMP))
				ORDER BY attempts DESC, last_failure_at DESC NULLS LAST
				LIMIT :limit
				""";
	}

	/**
	 * A merge whose update is conditional; a concurrent first advance of the same scope fails
	 * with a duplicate key, and is tried again.
	 */
	@Override
	String advanceSequence() {
		return """
				MERGE INTO idempotency_sequence s
				USING (VALUES (CAST(:tenant AS VARCHAR(255)), CAST(:scope AS VARCHAR(255)), CAST(:sequence AS BIGINT)))
				  AS v (tenant_id, scope, highest_sequence)
				ON s.tenant_id = v.tenant_id AND s.scope = v.scope
				WHEN MATCHED AND (s.highest_sequence <= v.highest_sequence OR s.expires_at <= CURRENT_TIMESTAMP) THEN
				  UPDATE SET highest_sequence = v.highest_sequence, updated_at = CURRENT_TIMESTAMP,
				    expires_at = DATEADD(MILLISECOND, :ttlMillis, CURRENT_TIMESTAMP)
				WHEN NOT MATCHED THEN
				  INSERT (tenant_id, scope, highest_sequence, updated_at, expires_at)
				  VALUES (v.tenant_id, v.scope, v.highest_sequence, CURRENT_TIMESTAMP,
				    DATEADD(MILLISECOND, :ttlMillis, CURRENT_TIMESTAMP))
				""";
	}

	@Override
	String selectSequence() {
		return """
				SELECT highest_sequence
				FROM idempotency_sequence
				WHERE tenant_id = :tenant AND scope = :scope AND expires_at > CURRENT_TIMESTAMP
				""";
	}

	@Override
	String purgeExpiredSequences() {
		return """
				DELETE FROM idempotency_sequence
				WHERE expires_at <= CURRENT_TIMESTAMP
				FETCH FIRST :batchSize ROWS ONLY
				""";
	}

	/**
	 * A merge that pushes out the expiry of a reference attached before; a concurrent first
	 * attachment of the same reference fails with a duplicate key, which means it is there.
	 */
	@Override
	String addReference() {
		return """
				MERGE INTO idempotency_reference r
				USING (VALUES (CAST(:tenant AS VARCHAR(255)), CAST(:operation AS VARCHAR(255)),
				  CAST(:key AS VARCHAR(255)), CAST(:name AS VARCHAR(64)), CAST(:value AS VARCHAR(255))))
				  AS v (tenant_id, operation, idempotency_key, reference_name, reference_value)
				ON r.tenant_id = v.tenant_id AND r.operation = v.operation AND r.idempotency_key = v.idempotency_key
				  AND r.reference_name = v.reference_name AND r.reference_value = v.reference_value
				WHEN MATCHED THEN
				  UPDATE SET expires_at = GREATEST(r.expires_at, DATEADD(MILLISECOND, :ttlMillis, CURRENT_TIMESTAMP))
				WHEN NOT MATCHED THEN
				  INSERT (tenant_id, operation, idempotency_key, reference_name, reference_value, created_at, expires_at)
				  VALUES (v.tenant_id, v.operation, v.idempotency_key, v.reference_name, v.reference_value,
				    CURRENT_TIMESTAMP, DATEADD(MILLISECOND, :ttlMillis, CURRENT_TIMESTAMP))
				""";
	}

	@Override
	String archiveReferencesByKey() {
		return """
				INSERT INTO idempotency_reference_archive (tenant_id, operation, idempotency_key, reference_name,
				  reference_value, created_at, archived_at)
				SELECT tenant_id, operation, idempotency_key, reference_name, reference_value, created_at,
				  CURRENT_TIMESTAMP
				FROM idempotency_reference
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				""";
	}

	@Override
	@Nullable String purgeOrphanReferences() {
		return null;
	}

	@Override
	String archiveOrphanReferences() {
		return """
				INSERT INTO idempotency_reference_archive (tenant_id, operation, idempotency_key, reference_name,
				  reference_value, created_at, archived_at)
				SELECT tenant_id, operation, idempotency_key, reference_name, reference_value, created_at,
				  CURRENT_TIMESTAMP
				FROM idempotency_reference r
				WHERE r.expires_at <= CURRENT_TIMESTAMP AND r.operation IN (:archivedOperations)
				  AND NOT EXISTS (SELECT 1 FROM idempotency_record rec WHERE rec.tenant_id = r.tenant_id
				    AND rec.operation = r.operation AND rec.idempotency_key = r.idempotency_key)
				""";
	}

	@Override
	String deleteOrphanReferences() {
		return """
				DELETE FROM idempotency_reference r
				WHERE r.expires_at <= CURRENT_TIMESTAMP
				  AND NOT EXISTS (SELECT 1 FROM idempotency_record rec WHERE rec.tenant_id = r.tenant_id
				    AND rec.operation = r.operation AND rec.idempotency_key = r.idempotency_key)
				""";
	}

	@Override
	String releaseStuck() {
		return """
				DELETE FROM idempotency_record
				WHERE tenant_id = :tenant AND operation = :operation AND idempotency_key = :key
				  AND status = 'IN_PROGRESS' AND (:force OR locked_until <= CURRENT_TIMESTAMP)
				""";
	}

	@Override
	String countStuck() {
		return """
				SELECT count(*)
				FROM idempotency_record
				WHERE status = 'IN_PROGRESS' AND locked_until <= CURRENT_TIMESTAMP
				""";
	}

}
