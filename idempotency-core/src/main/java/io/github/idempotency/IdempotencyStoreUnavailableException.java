package io.github.idempotency;

import java.time.Duration;

import org.springframework.http.HttpStatus;

/**
 * Thrown when the idempotency store cannot be reached ({@code 503}), so that no effect may safely
 * run; a retry can succeed once it is back.
 */
public class IdempotencyStoreUnavailableException extends IdempotencyException {

	private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

	public IdempotencyStoreUnavailableException(Throwable cause) {
		super(HttpStatus.SERVICE_UNAVAILABLE, "store-unavailable", "Idempotency store unavailable",
				"The idempotency store is unavailable; retry later.", RETRY_AFTER, cause);
	}

}
