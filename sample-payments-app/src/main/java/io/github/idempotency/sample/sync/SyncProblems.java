package io.github.idempotency.sample.sync;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import io.github.idempotency.IdempotencyKeyMismatchException;
import io.github.idempotency.sample.problems.Problems;

/**
 * Renders sync failures as RFC 9457 problems, ahead of the application's other advice and of the
 * starter's. A sync key names the version an update was built on, so the starter's refusal of the
 * key for a different request means that another update was already built on that version: it is
 * answered as the stale version it is.
 */
@RestControllerAdvice(assignableTypes = SyncController.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class SyncProblems {

	private final SyncRows rows;

	SyncProblems(SyncRows rows) {
		this.rows = rows;
	}

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
	ProblemDetail keyUsedByAnotherUpdate(IdempotencyKeyMismatchException ex, HttpServletRequest request) {
		if (!(request.getAttribute(SyncKeys.TARGET_ATTRIBUTE) instanceof SyncTarget target)) {
			return ex.getBody();
		}
		return stale(new StaleVersionException(target, this.rows.currentVersion(target.entity(), target.id())));
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
