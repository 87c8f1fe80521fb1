package io.github.idempotency.annotation;

/**
 * How an idempotent operation stays exactly-once when the application crashes mid-way.
 */
public enum IdempotencyMode {

	/**
	 * The claim commits on its own as {@code IN_PROGRESS} under a time-limited lease with a fencing
	 * token; completion is a compare-and-set on that token, and a retry may take the key over once
	 * the lease has run out. Effects outside the database need an idempotent downstream.
	 */
	LEASED,

	/**
	 * The claim, the method's own database writes and the completion commit in one transaction,
	 * so a crash leaves either nothing or everything.
	 */
	ATOMIC

}
