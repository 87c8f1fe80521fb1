package io.github.idempotency.sample.intents;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import io.github.idempotency.sample.problems.Problems;

/**
 * Renders intent mandate failures as RFC 9457 problems.
 */
@RestControllerAdvice
class IntentMandateProblems {

	@ExceptionHandler
	ProblemDetail invalidIntent(InvalidIntentException ex) {
		ProblemDetail problem = Problems.of(HttpStatus.BAD_REQUEST, "invalid-intent", "Invalid intent",
				ex.getMessage());
		problem.setProperty("errors", ex.getErrors());
		return problem;
	}

	@ExceptionHandler
	ProblemDetail notFound(IntentMandateNotFoundException ex) {
		return Problems.of(HttpStatus.NOT_FOUND, "intent-mandate-not-found", "Intent mandate not found",
				ex.getMessage());
	}

}
