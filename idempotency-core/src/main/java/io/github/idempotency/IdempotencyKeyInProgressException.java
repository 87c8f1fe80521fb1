package io.github.idempotency;

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;

/**
 * Thrown when a request with the same key is still being processed ({@code 409}); a message
 * consumer should let the broker redeliver later.
 */
public class IdempotencyKeyInProgressException extends IdempotencyException {

	public IdempotencyKeyInProgressException(Duration retryAfter) {
		this("in-progress", "Request with this idempotency key in progress",
				"A request with this idempotency key is still being processed; retry later.", retryAfter);
	}

	/**
	 * Create a more specific refusal of a key held by another request.
	 * @param type the last segment of the problem type
	 * @param title the problem title
	 * @param detail the problem detail
	 * @param retryAfter when to retry, or {@code null}
	 */
	protected IdempotencyKeyInProgressException(String type, String title, String detail,
			@Nullable Duration retryAfter) {
		super(HttpStatus.CONFLICT, type, title, detail, retryAfter, null);
	}

}
