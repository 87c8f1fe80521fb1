package io.github.idempotency.sample.sessions;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import io.github.idempotency.sample.problems.Problems;

/**
 * Renders session failures as RFC 9457 problems.
 */
@RestControllerAdvice
class SessionProblems {

	@ExceptionHandler
	ProblemDetail invalid(InvalidSessionRequestException ex) {
		return Problems.of(HttpStatus.BAD_REQUEST, "invalid-session-request", "Invalid session request",
				ex.getMessage());
	}

	@ExceptionHandler
	ProblemDetail notFound(SessionNotFoundException ex) {
		return Problems.of(HttpStatus.NOT_FOUND, "session-not-found", "Session not found", ex.getMessage());
	}

}
