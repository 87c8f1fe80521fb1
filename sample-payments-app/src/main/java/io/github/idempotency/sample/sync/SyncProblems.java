package io.github.idempotency.sample.sync;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import io.github.idempotency.sample.problems.Problems;

/**
 * Renders sync failures as RFC 9457 problems, ahead of the application's other advice.
 */
@RestControllerAdvice(assignableTypes = SyncController.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class SyncProblems {

	@ExceptionHandler
	ProblemDetail invalid(InvalidSyncException ex) {
		ProblemDetail problem = Problems.of(HttpStatus.BAD_REQUEST, "invalid-sync", "Invalid sync request",
				ex.getMessage());
		problem.setProperty("errors", ex.getErrors());
		return problem;
	}

	@ExceptionHandler
	ProblemDetail stale(StaleVersionException ex) {
		return conflict("stale-version", "Update built on a stale version", ex);
	}

	@ExceptionHandler
	ProblemDetail unknown(UnknownVersionException ex) {
		return conflict("unknown-version", "Update built on an unknown version", ex);
	}

	@ExceptionHandler
	ProblemDetail notFound(SyncedEntityNotFoundException ex) {
		return Problems.of(HttpStatus.NOT_FOUND, "synced-entity-not-found", "Not found", ex.getMessage());
	}

	private static ProblemDetail conflict(String slug, String title, VersionConflictException ex) {
		ProblemDetail problem = Problems.of(HttpStatus.PRECONDITION_FAILED, slug, title, ex.getMessage());
		problem.setProperty("entity", ex.getTarget().entity());
		problem.setProperty("id", ex.getTarget().id());
		problem.setProperty("baseVersion", ex.getTarget().baseVersion());
		problem.setProperty("currentVersion", ex.getCurrentVersion());
		return problem;
	}

}
