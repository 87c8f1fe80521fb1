package io.github.idempotency.actuate;

/**
 * What the meters of this instance have counted, shown by the {@code idempotency} endpoint next
 * to the store's counts, so that the dashboard page needs no metrics endpoint of its own.
 */
@FunctionalInterface
interface IdempotencyActivity {

	/**
	 * Read the meters now.
	 * @return what they have counted since this instance started
	 */
	ActivityDescriptor activity();

}
