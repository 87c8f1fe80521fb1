package io.github.idempotency.web;

import io.github.idempotency.core.IdempotencyException;
import io.github.idempotency.core.IdempotencyProblem;

/**
 * Answers a request whose handler returned although its ATOMIC transaction had been marked
 * rollback-only: its writes rolled back, so its answer must not be sent or stored.
 */
final class IdempotentTransactionRolledBackException extends IdempotencyException {

	IdempotentTransactionRolledBackException() {
		super(IdempotencyProblem.ROLLED_BACK, "The operation's transaction was rolled back, so it had no effect and "
				+ "nothing was stored; retry.");
	}

}
