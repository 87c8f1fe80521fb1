package io.github.idempotency.chaos;

import java.util.List;

/**
 * Reads the idempotency records of a store after a soak: the one part of the database state that
 * depends on the store under test.
 */
interface IdempotencyRecords {

	/**
	 * Return every record of the sample's payment operations, {@code create-payment} and
	 * {@code create-payment-async}.
	 * @return the records
	 */
	List<DatabaseState.IdempotencyRecord> load();

}
