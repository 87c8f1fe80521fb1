package io.github.idempotency.sample.sessions;

import java.net.URI;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import io.github.idempotency.IdempotencyException;
import io.github.idempotency.IdempotencyStaleSequenceException;
import io.github.idempotency.sample.problems.Problems;

/**
 * Renders session and session cart failures as RFC 9457 problems.
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

	@ExceptionHandler
	ProblemDetail invalidCartUpdate(InvalidCartUpdateException ex) {
		ProblemDetail problem = Problems.of(HttpStatus.BAD_REQUEST, "invalid-cart-update", "Invalid cart update",
				ex.getMessage());
		problem.setProperty("errors", ex.getErrors());
		return problem;
	}

	@ExceptionHandler
	ProblemDetail notActive(SessionNotActiveException ex) {
		return Problems.of(HttpStatus.CONFLICT, "session-not-active", "Session not active", ex.getMessage());
	}

	/**
	 * The cart's own refusal of an out-of-order update has the starter's stale-sequence problem
	 * type, so that a client handles one problem whichever of the two refused the update.
	 */
	@ExceptionHandler
	ProblemDetail outOfOrder(CartUpdateOutOfOrderException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, ex.getMessage());
		problem.setType(URI.create(IdempotencyException.TYPE_PREFIX + IdempotencyStaleSequenceException.TYPE));
		problem.setTitle("Stale sequence number");
		problem.setProperty("sequence", ex.getSequence());
		problem.setProperty("highestSequence", ex.getHighestSequence());
		return problem;
	}

}
