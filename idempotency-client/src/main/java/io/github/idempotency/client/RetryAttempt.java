package io.github.idempotency.client;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;

/**
 * The outcome of one attempt of a keyed call, as reported to a {@link RetryListener}.
 *
 * @param method the HTTP method
 * @param uri the request URI
 * @param attempt the attempt number, starting at 1
 * @param maxAttempts the most attempts the call may make
 * @param keyHash the {@link IdempotencyKeys#hash hash} of the key, never the key itself
 * @param status the response status, or {@code null} if the attempt failed with an exception
 * @param exception the I/O error of the attempt, or {@code null} if a response was received
 * @param nextDelay how long the interceptor waits before the next attempt, or {@code null} if
 * this attempt's outcome is returned to the caller
 */
public record RetryAttempt(HttpMethod method, URI uri, int attempt, int maxAttempts, String keyHash,
		@Nullable HttpStatusCode status, @Nullable IOException exception, @Nullable Duration nextDelay) {

	/**
	 * Return whether another attempt follows this one.
	 * @return {@code true} if the call will be retried
	 */
	public boolean willRetry() {
		return this.nextDelay != null;
	}

}
