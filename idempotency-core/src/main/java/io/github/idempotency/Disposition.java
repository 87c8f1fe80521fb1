package io.github.idempotency;

/**
 * What becomes of a claimed key once its operation has run.
 */
public enum Disposition {

	/**
	 * The result is final: store it and replay it to every retry.
	 */
	STORE,

	/**
	 * The failure is transient: delete the claim so that a retry runs the operation again.
	 */
	RELEASE

}
