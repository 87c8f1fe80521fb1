package io.github.idempotency.web.servlet;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

import io.github.idempotency.web.HttpProblems;
import io.github.idempotency.IdempotencyException;

/**
 * Answers as RFC 9457 problems the refusals of {@code @Idempotent} bean methods called from a web
 * request (the refusals of {@code @Idempotent} handlers are answered before any exception handler
 * sees them), after any {@code @ControllerAdvice} of the application that handles them first.
 */
@ControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
class IdempotencyProblemAdvice {

	private final HttpProblems problems;

	public IdempotencyProblemAdvice(HttpProblems problems) {
		this.problems = problems;
	}

	@ExceptionHandler(IdempotencyException.class)
	ResponseEntity<ProblemDetail> handleIdempotencyException(IdempotencyException ex, HttpServletRequest request) {
		HttpHeaders headers = this.problems.headers(ex);
		headers.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
		return ResponseEntity.status(ex.getStatusCode())
			.headers(headers)
			.body(this.problems.problem(ex, request.getRequestURI()));
	}

}
