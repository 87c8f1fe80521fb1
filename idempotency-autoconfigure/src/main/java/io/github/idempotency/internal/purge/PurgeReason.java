package io.github.idempotency.internal.purge;

import java.util.Locale;

/**
 * Why the purge deleted a record, as reported in the {@code reason} tag of
 * {@code idempotency.purge.deleted}.
 */
public enum PurgeReason {

	/**
	 * The record was completed and its time to live has passed.
	 */
	EXPIRED,

	/**
	 * The record was left in progress, by a request that never finished and was never retried,
	 * for longer than {@code idempotency.purge.stuck-after} past its lease.
	 */
	STUCK;

	private final String tag = name().toLowerCase(Locale.ROOT);

	/**
	 * Return the value of the {@code reason} tag.
	 * @return the tag value, such as {@code expired}
	 */
	public String tag() {
		return this.tag;
	}

}
