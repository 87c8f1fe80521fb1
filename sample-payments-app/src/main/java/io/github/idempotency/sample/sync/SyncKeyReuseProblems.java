package io.github.idempotency.sample.sync;

import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

import io.github.idempotency.IdempotencyException;
import io.github.idempotency.IdempotencyKeyMismatchException;
import io.github.idempotency.IdempotencyProblemCustomizer;

/**
 * Tells a sync client whose update was refused as a reused key what that means: a sync key names
 * the version an update was built on, so another update was already built on that version, and the
 * entity has moved on to {@code currentVersion}.
 */
@Component
class SyncKeyReuseProblems implements IdempotencyProblemCustomizer {

	private final SyncRows rows;

	SyncKeyReuseProblems(SyncRows rows) {
		this.rows = rows;
	}

	@Override
	public void customize(ProblemDetail problem, IdempotencyException exception) {
		RequestAttributes request = RequestContextHolder.getRequestAttributes();
		if (!(exception instanceof IdempotencyKeyMismatchException) || request == null
				|| !(request.getAttribute(SyncKeys.TARGET_ATTRIBUTE,
						RequestAttributes.SCOPE_REQUEST) instanceof SyncTarget target)) {
			return;
		}
		long current = this.rows.currentVersion(target.entity(), target.id());
		problem.setDetail("Another update was already built on version " + target.baseVersion() + " of this "
				+ target.entity() + "; read it at version " + current + " and build your update on that.");
		problem.setProperty("entity", target.entity());
		problem.setProperty("id", target.id());
		problem.setProperty("baseVersion", target.baseVersion());
		problem.setProperty("currentVersion", current);
	}

}
