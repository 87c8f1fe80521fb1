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
	COMPLETED

}
