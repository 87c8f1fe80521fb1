package io.github.idempotency.core;

import java.time.Duration;

/**
 * Thrown when a request outlived its lease and another request took its key over, so that its
 * own result could not be recorded; or, from {@link IdempotencyContext#checkLease()}, when its
 * lease could not be renewed in time and a retry may take the key over.
 */
public class IdempotencyLeaseLostException extends IdempotencyKeyInProgressException {

	public IdempotencyLeaseLostException(Duration retryAfter) {
		this("This request ran past its lease and another request took its idempotency key over; "
				+ "retry to receive that request's result.", retryAfter);
	}

	IdempotencyLeaseLostException(String detail, Duration retryAfter) {
		super(IdempotencyProblem.LEASE_LOST, detail, retryAfter);
	}

	static IdempotencyLeaseLostException notRenewed(Duration lease) {
		return new IdempotencyLeaseLostException("The lease of this request could not be renewed in time, so a "
				+ "retry may take its idempotency key over; it stopped before its effect. Retry.", lease);
	}

}
