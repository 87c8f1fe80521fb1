package io.github.idempotency.store;

import java.util.List;
import java.util.Optional;

import io.github.idempotency.core.IdempotencyKey;

/**
 * Operator access to the stored records, for the Actuator endpoint and health check; kept apart
 * from {@link IdempotencyStore}, which serves the request path.
 */
public interface IdempotencyRecordAdministration {

	/**
	 * Count the records of every operation.
	 * @return the counts, one entry per operation that has records
	 */
	List<RecordCounts> countByOperation();

	/**
	 * Describe one record without its stored response body.
	 * @param key the key
	 * @return the record's metadata, if there is a record
	 */
	Optional<RecordMetadata> describe(IdempotencyKey key);

	/**
	 * Delete a record in progress so that a retry runs the operation again.
	 * @param key the key
	 * @param force whether to release it even while its lease is live, which lets a retry run while
	 * the first request may still be running
	 * @return what happened
	 */
	ReleaseOutcome release(IdempotencyKey key, boolean force);

	/**
	 * Count the records in progress whose lease has run out and which no retry took over.
	 * @return the number of stuck records
	 */
	long countStuck();

}
