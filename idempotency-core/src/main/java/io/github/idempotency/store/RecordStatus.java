package io.github.idempotency.store;

/**
 * Life-cycle state of an idempotency record.
 */
public enum RecordStatus {

	/**
	 * Claimed by a request that has not finished yet.
	 */
	IN_PROGRESS,

	/**
	 * Finished; the stored response is replayed to every retry.
	 */
	COMPLETED,

	/**
	 * Given up after a transient failure: a claim treats the record as absent, so a retry runs the
	 * operation again, and the record, without a response, keeps the key's attempts and its last
	 * failure until it expires.
	 */
	RELEASED

}
