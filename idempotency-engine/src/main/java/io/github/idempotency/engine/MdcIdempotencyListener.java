package io.github.idempotency.engine;

import org.springframework.core.Ordered;

import io.github.idempotency.IdempotencyListener;
import io.github.idempotency.Outcome;

/**
 * Puts the outcome of a request into the MDC of the thread that handles it, next to the operation
 * and key hash that the request's handler put there; ordered first, so that what other listeners
 * log carries the outcome.
 */
class MdcIdempotencyListener implements IdempotencyListener, Ordered {

	@Override
	public void onOutcome(String operation, Outcome outcome) {
		IdempotencyMdc.putOutcome(outcome);
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
