package io.github.idempotency;

import java.util.Locale;

/**
 * How one idempotent request ended, as reported in the {@code outcome} tag of
 * {@code idempotency.requests}.
 */
public enum Outcome {

	/**
	 * The request ran and its response was stored.
	 */
	EXECUTED,

	/**
	 * The stored response of an earlier request was replayed.
	 */
	REPLAYED,

	/**
	 * The key was in progress and the request was refused with 409.
	 */
	CONFLICT,

	/**
	 * The key was used before for a different request and the request was refused with 422.
	 */
	MISMATCH,

	/**
	 * A required key was missing or malformed.
	 */
	MISSING_KEY,

	/**
	 * The request ran and failed transiently, so its claim was released for a retry.
	 */
	RELEASED,

	/**
	 * The request ran past its lease and another request took its key over, so its result was
	 * discarded.
	 */
	TAKEN_OVER,

	/**
	 * The tenant was at its limit of new keys or of keys in flight and the request was refused
	 * with 429, nothing stored.
	 */
	RATE_LIMITED,

	/**
	 * The request's sequence number was lower than the highest one processed for its scope, so it
	 * was refused with 409 and did not run, nothing stored.
	 */
	STALE_SEQUENCE,

	/**
	 * The request ended before its asynchronous work, whose end the starter cannot see (a
	 * {@code DeferredResult} past its timeout, say): nothing was stored or released, and the key
	 * frees when its lease runs out.
	 */
	ABANDONED;

	private final String tag = name().toLowerCase(Locale.ROOT);

	/**
	 * Return the value of the {@code outcome} tag.
	 * @return the tag value, such as {@code missing_key}
	 */
	public String tag() {
		return this.tag;
	}

}
