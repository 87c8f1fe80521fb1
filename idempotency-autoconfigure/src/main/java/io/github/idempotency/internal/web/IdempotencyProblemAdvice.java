package io.github.idempotency.internal.web;

import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

import io.github.idempotency.IdempotencyException;

/**
 * Answers the refusals of the starter as RFC 9457 problems, after any {@code @ControllerAdvice} of
 * the application that handles them (or {@code ErrorResponseException}) first.
 */
@ControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
public class IdempotencyProblemAdvice {

	private final @Nullable String describedBy;

	/**
	 * Create the advice.
	 * @param describedBy the {@code Link} header that points clients to documentation, or
	 * {@code null}
	 */
	public IdempotencyProblemAdvice(@Nullable String describedBy) {
		this.describedBy = describedBy;
	}

	@ExceptionHandler(IdempotencyException.class)
	ResponseEntity<ProblemDetail> handleIdempotencyException(IdempotencyException ex) {
		HttpHeaders headers = new HttpHeaders();
		headers.putAll(ex.getHeaders());
		if (this.describedBy != null) {
			headers.add(HttpHeaders.LINK, this.describedBy);
		}
		headers.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
		return ResponseEntity.status(ex.getStatusCode()).headers(headers).body(ex.getBody());
	}

}
