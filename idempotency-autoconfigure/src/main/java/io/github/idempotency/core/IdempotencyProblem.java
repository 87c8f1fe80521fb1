package io.github.idempotency.core;

import java.net.URI;

/**
 * Every way the starter itself refuses a request, each with a stable RFC 9457 problem type.
 */
public enum IdempotencyProblem {

	/**
	 * The operation requires a key and the request has none.
	 */
	MISSING_KEY(400, "missing-key", "Idempotency key missing"),

	/**
	 * The key is empty, too long, not printable ASCII, or sent more than once.
	 */
	INVALID_KEY(400, "invalid-key", "Invalid idempotency key"),

	/**
	 * The tenant the request names is not usable.
	 */
	INVALID_TENANT(400, "invalid-tenant", "Invalid tenant"),

	/**
	 * The body cannot be fingerprinted unambiguously, such as JSON with a duplicate field.
	 */
	MALFORMED_BODY(400, "malformed-body", "Ambiguous request body"),

	/**
	 * The body is larger than {@code idempotency.max-body-size}.
	 */
	BODY_TOO_LARGE(413, "body-too-large", "Request body too large"),

	/**
	 * A request with the same key is still being processed.
	 */
	IN_PROGRESS(409, "in-progress", "Request with this idempotency key in progress"),

	/**
	 * The key was already used for a request with a different fingerprint.
	 */
	KEY_REUSED(422, "key-reused", "Idempotency key reused for a different request"),

	/**
	 * The request ran past its lease and another request took the key over.
	 */
	LEASE_LOST(409, "lease-lost", "Idempotency lease lost"),

	/**
	 * The operation's transaction was marked rollback-only, so that its writes rolled back and
	 * nothing was stored.
	 */
	ROLLED_BACK(500, "rolled-back", "Idempotent operation rolled back"),

	/**
	 * The idempotency store could not be reached.
	 */
	STORE_UNAVAILABLE(503, "store-unavailable", "Idempotency store unavailable");

	/**
	 * Prefix of every problem type URI.
	 */
	public static final String TYPE_PREFIX = "urn:problem-type:idempotency:";

	private final int status;

	private final URI type;

	private final String title;

	IdempotencyProblem(int status, String slug, String title) {
		this.status = status;
		this.type = URI.create(TYPE_PREFIX + slug);
		this.title = title;
	}

	public int status() {
		return this.status;
	}

	public URI type() {
		return this.type;
	}

	public String title() {
		return this.title;
	}

}
