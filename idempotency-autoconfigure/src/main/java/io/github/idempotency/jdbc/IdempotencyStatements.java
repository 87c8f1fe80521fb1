package io.github.idempotency.jdbc;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

/**
 * The SQL statements of the JDBC store for one database, with named parameters; every statement
 * decides time with the database clock. Create one per data source with {@link #of(DataSource)}.
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

	/**
	 * Whether {@link #claim()} answers with the existing record itself when the key is taken;
	 * otherwise it is a plain insert that fails with a duplicate key.
	 */
	abstract boolean claimReturnsExisting();

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}, {@code fingerprint},
	 * {@code token}, {@code leaseMillis}, {@code ttlMillis}: claims a free key.
	 */
	abstract String claim();

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}: reads one record with its
	 * time-derived flags.
	 */
	abstract String select();

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}, {@code oldToken},
	 * {@code fingerprint}, {@code newToken}, {@code leaseMillis}, {@code ttlMillis},
	 * {@code attempt}: takes over an expired record, a released one or a run-out lease.
	 */
	abstract String takeOver();

	/**
	 * Parameters as {@link #takeOver()}: takes over an expired record and archives it in one
	 * statement, answering the number of records taken over; {@code null} where that takes
	 * {@link #takeOver()} followed by {@link #archiveRecord()}.
	 */
	abstract @Nullable String takeOverArchiving();

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}, {@code status},
	 * {@code fingerprint}, {@code token}, {@code createdAt}, {@code completedAt}, {@code expiresAt},
	 * {@code responseStatus}, {@code responseHeaders}, {@code responseBody}: archives a record from
	 * the values given.
	 */
	abstract String archiveRecord();

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}, {@code token},
	 * {@code responseStatus}, {@code responseHeaders}, {@code responseBody}, {@code ttlMillis}.
	 */
	abstract String complete();

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}, {@code token}, {@code failure}:
	 * marks a record in progress released, with its failure, to expire as long after the release
	 * as its TTL.
	 */
	abstract String release();

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}, {@code token},
	 * {@code leaseMillis}.
	 */
	abstract String extendLease();

	/**
	 * Whether {@link #purgeExpired()} and {@link #purgeStuck()} delete and archive a whole batch,
	 * answering the counts per operation; otherwise they lock the keys of a batch for
	 * {@link #archiveByKey()} and {@link #deleteByKey()}.
	 */
	abstract boolean purgesInOneStatement();

	/**
	 * Parameters {@code batchSize}, then, where a batch is one statement,
	 * {@code archivedOperations}: one batch of completed records past their expiry.
	 */
	abstract String purgeExpired();

	/**
	 * Parameters {@code stuckAfterMillis}, {@code batchSize}, then, where a batch is one statement,
	 * {@code archivedOperations}: one batch of records left in progress that long past their lease.
	 */
	abstract String purgeStuck();

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}: copies one record into the
	 * archive table, unless a transient failure released it.
	 */
	abstract String archiveByKey();

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}: deletes one record whatever its
	 * state.
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
	abstract String countByOperation();

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}: reads the metadata of one record,
	 * without its response body.
	 */
	abstract String describe();

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}, {@code force} (whether to release
	 * a live lease too): deletes a record in progress.
	 */
	abstract String releaseStuck();

	/**
	 * No parameters: counts records in progress past their lease.
	 */
	abstract String countStuck();

	/**
	 * Parameters {@code operation} (or {@code null} for every operation), {@code limit}: the live
	 * records of keys that ran more than once, most attempts first.
	 */
	abstract String repeatedFailures();

	/**
	 * Parameters {@code tenant}, {@code scope}, {@code sequence}, {@code ttlMillis}: one
	 * conditional write that raises the scope's highest number to {@code sequence} if that is at
	 * least as high, or the scope is absent or expired; updates one row when it does, none when it
	 * does not.
	 */
	abstract String advanceSequence();

	/**
	 * Parameters {@code tenant}, {@code scope}: the highest number of a live scope.
	 */
	abstract String selectSequence();

	/**
	 * Parameter {@code batchSize}: deletes one batch of expired scopes.
	 */
	abstract String purgeExpiredSequences();

	/**
	 * Parameters {@code tenant}, {@code operation}, {@code key}, {@code name}, {@code value},
	 * {@code ttlMillis}: attaches a reference to a key, or pushes out the expiry of one attached
	 * before.
	 */
	abstract String addReference();

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
	abstract String archiveReferencesByKey();

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
	abstract @Nullable String purgeOrphanReferences();

	/**
	 * Parameter {@code archivedOperations} (a non-empty list): archives the expired references
	 * whose record is gone of archived operations.
	 */
	abstract String archiveOrphanReferences();

	/**
	 * No parameters: deletes the expired references whose record is gone.
	 */
	abstract String deleteOrphanReferences();

}
