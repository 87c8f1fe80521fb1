package io.github.idempotency.internal.engine;

import java.time.Duration;

import io.github.idempotency.IdempotencyKeyInProgressException;

/**
 * Thrown when a request outlived its lease and another request took its key over, so that its
 * own result could not be recorded; or, from {@code IdempotencyContext.checkLease()}, when its
 * lease could not be renewed in time and a retry may take the key over ({@code 409}).
 */
public class IdempotencyLeaseLostException extends IdempotencyKeyInProgressException {

	public IdempotencyLeaseLostException(Duration retryAfter) {
		this("This request ran past its lease and another request took its idempotency key over; "
				+ "retry to receive that request's result.", retryAfter);
	}

	private IdempotencyLeaseLostException(String detail, Duration retryAfter) {
		super("lease-lost", "Idempotency lease lost", detail, retryAfter);
	}

	static IdempotencyLeaseLostException notRenewed(Duration lease) {
		return new IdempotencyLeaseLostException("The lease of this request could not be renewed in time, so a "
				+ "retry may take its idempotency key over; it stopped before its effect. Retry.", lease);
	}

}
