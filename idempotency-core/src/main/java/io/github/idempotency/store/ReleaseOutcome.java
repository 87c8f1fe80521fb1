package io.github.idempotency.store;

/**
 * What an operator's release of a key did.
 */
public enum ReleaseOutcome {

	/**
	 * The record in progress was deleted; a retry runs the operation again.
	 */
	RELEASED,

	/**
	 * There is no record for the key.
	 */
	NOT_FOUND,

	/**
	 * The record is completed; its response is replayed until it expires and is not released.
	 */
	COMPLETED,

	/**
	 * The record is in progress under a live lease and was not released, as its request may still
	 * be running; release it with force to override.
	 */
	LEASE_ACTIVE,

	/**
	 * A transient failure released the key already; a retry runs the operation again.
	 */
	ALREADY_RELEASED

}
