package io.github.idempotency;

import java.net.URI;
import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * Base class of the exceptions with which the starter refuses a request: each is a Spring
 * {@link org.springframework.web.ErrorResponse} with an RFC 9457 problem of a stable
 * {@code urn:problem-type:idempotency:*} type. The refusals of {@code @Idempotent} handlers are
 * answered by the starter itself, whose problems an {@link IdempotencyProblemCustomizer} shapes;
 * those of bean methods reach their caller as exceptions.
 */
public abstract class IdempotencyException extends ErrorResponseException {

	/**
	 * Prefix of every problem type URI.
	 */
	public static final String TYPE_PREFIX = "urn:problem-type:idempotency:";

	private final @Nullable Duration retryAfter;

	/**
	 * Create an exception.
	 * @param status the HTTP status of the problem
	 * @param type the last segment of the problem type, such as {@code in-progress}
	 * @param title the problem title
	 * @param detail the problem detail
	 * @param retryAfter how long a client should wait before a retry can succeed, or
	 * {@code null} when a retry of the same request cannot
	 * @param cause the cause, or {@code null}
	 */
	protected IdempotencyException(HttpStatusCode status, String type, String title, String detail,
			@Nullable Duration retryAfter, @Nullable Throwable cause) {
		super(status, problem(status, type, title, detail), cause);
		this.retryAfter = retryAfter;
		if (retryAfter != null) {
			getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds(retryAfter)));
		}
	}

	private static ProblemDetail problem(HttpStatusCode status, String type, String title, String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setType(URI.create(TYPE_PREFIX + type));
		problem.setTitle(title);
		return problem;
	}

	/**
	 * Return how long the client should wait before retrying, if a retry can succeed.
	 * @return the delay, or {@code null} when a retry with the same request cannot succeed
	 */
	public @Nullable Duration getRetryAfter() {
		return this.retryAfter;
	}

	/**
	 * Return the problem's detail, which says what happened and what to do.
	 */
	@Override
	public String getMessage() {
		String detail = getBody().getDetail();
		return (detail != null) ? detail : super.getMessage();
	}

	/**
	 * Return a delay in whole seconds for a {@code Retry-After} header: rounded up, at least one.
	 * @param retryAfter the delay
	 * @return the seconds
	 */
	public static long retryAfterSeconds(Duration retryAfter) {
		return Math.max(1, (retryAfter.toMillis() + 999) / 1000);
	}

}
