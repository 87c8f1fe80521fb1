package io.github.idempotency.store;

import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import io.github.idempotency.IdempotencyKey;

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

	/**
	 * List the live keys that ran most often: those that ran more than once, most attempts first.
	 * @param operation the operation to list, or {@code null} for all
	 * @param limit how many keys to list at most
	 * @return the keys
	 */
	List<RepeatedFailure> repeatedFailures(@Nullable String operation, int limit);

	/**
	 * List the keys a reference is attached to, oldest attachment first.
	 * @param name the kind of reference
	 * @param value the reference
	 * @param limit how many keys to list at most
	 * @return the keys
	 */
	List<ReferencedKey> findByReference(String name, String value, int limit);

}
