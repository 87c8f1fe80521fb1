package io.github.idempotency;

import java.time.Duration;

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

	/**
	 * Return the exception for a request whose lease could not be renewed in time.
	 * @param lease the lease, after which a retry may take the key over
	 * @return the exception
	 */
	public static IdempotencyLeaseLostException notRenewed(Duration lease) {
		return new IdempotencyLeaseLostException("The lease of this request could not be renewed in time, so a "
				+ "retry may take its idempotency key over; it stopped before its effect. Retry.", lease);
	}

}
