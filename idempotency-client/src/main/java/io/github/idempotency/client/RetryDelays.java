package io.github.idempotency.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * Computes the wait before a retry: exponential backoff with jitter, or the server's
 * {@code Retry-After}, capped by the max delay.
 */
final class RetryDelays {

	private static final long MAX_DELTA_SECONDS = Duration.ofDays(365).toSeconds();

	private RetryDelays() {
	}

	/**
	 * Return the wait before the retry that follows a failed attempt.
	 * @param options the settings
	 * @param failedAttempt the number of the attempt that failed, starting at 1
	 * @param responseHeaders the headers of the failed attempt's response, or {@code null}
	 * after an I/O error
	 * @return the wait, never negative and never longer than the max delay
	 */
	static Duration next(IdempotencyRetryOptions options, int failedAttempt, @Nullable HttpHeaders responseHeaders) {
		Duration retryAfter = (responseHeaders != null) ? retryAfter(responseHeaders, options.clock()) : null;
		if (retryAfter != null) {
			return min(retryAfter, options.maxDelay());
		}
		return options.jitter().apply(backoff(options, failedAttempt), options.random());
	}

	/**
	 * Return the exponential backoff, before jitter, that follows a failed attempt.
	 * @param options the settings
	 * @param failedAttempt the number of the attempt that failed, starting at 1
	 * @return {@code initialDelay * multiplier^(failedAttempt - 1)}, at most the max delay
	 */
	static Duration backoff(IdempotencyRetryOptions options, int failedAttempt) {
		double nanos = options.initialDelay().toNanos() * Math.pow(options.multiplier(), failedAttempt - 1);
		long max = options.maxDelay().toNanos();
		return Duration.ofNanos((nanos >= max) ? max : (long) nanos);
	}

	/**
	 * Parse a {@code Retry-After} header given as delta-seconds or as an HTTP-date.
	 * @param headers the response headers
	 * @param clock the clock an HTTP-date is compared with
	 * @return the wait the server asks for (zero for a date in the past), or {@code null} if
	 * the header is absent or malformed
	 */
	static @Nullable Duration retryAfter(HttpHeaders headers, Clock clock) {
		String value = headers.getFirst(HttpHeaders.RETRY_AFTER);
		if (value == null || value.isBlank()) {
			return null;
		}
		value = value.trim();
		if (value.chars().allMatch((c) -> c >= '0' && c <= '9')) {
			if (value.length() > 12) {
				return Duration.ofSeconds(MAX_DELTA_SECONDS);
			}
			return Duration.ofSeconds(Math.min(Long.parseLong(value), MAX_DELTA_SECONDS));
		}
		try {
			ZonedDateTime date = headers.getFirstZonedDateTime(HttpHeaders.RETRY_AFTER);
			if (date == null) {
				return null;
			}
			Duration wait = Duration.between(Instant.now(clock), date.toInstant());
			return wait.isNegative() ? Duration.ZERO : wait;
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	private static Duration min(Duration a, Duration b) {
		return (a.compareTo(b) <= 0) ? a : b;
	}

}
