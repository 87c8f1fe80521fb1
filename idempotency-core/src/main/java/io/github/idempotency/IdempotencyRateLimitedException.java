package io.github.idempotency;

import java.time.Duration;

import org.springframework.http.HttpStatus;


/**
 * Thrown when a tenant is at its limit of new keys or of keys in flight ({@code 429}): nothing was
 * stored, and the same request may be retried after the given delay.
 */
public class IdempotencyRateLimitedException extends IdempotencyException {

	public IdempotencyRateLimitedException(Duration retryAfter) {
		super(HttpStatus.TOO_MANY_REQUESTS, "rate-limited", "Too many new idempotency keys",
				"Too many new idempotency keys, or too many requests in progress, for this tenant; retry later.",
				retryAfter, null);
	}

}
