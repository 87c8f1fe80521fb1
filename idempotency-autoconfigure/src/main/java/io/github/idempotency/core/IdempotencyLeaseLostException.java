package io.github.idempotency.core;

import java.time.Duration;

/**
 * Thrown when a request outlived its lease and another request took its key over, so that its
 * own result could not be recorded.
 */
public class IdempotencyLeaseLostException extends IdempotencyKeyInProgressException {

	public IdempotencyLeaseLostException(Duration retryAfter) {
		super(IdempotencyProblem.LEASE_LOST,
				"This request ran past its lease and another request took its idempotency key over; "
						+ "retry to receive that request's result.",
				retryAfter);
	}

}
