package io.github.idempotency.web.servlet;

import org.springframework.http.HttpStatus;

import io.github.idempotency.IdempotencyException;

/**
 * Answers a request whose handler returned although its ATOMIC transaction had been marked
 * rollback-only: its writes rolled back, so its answer must not be sent or stored ({@code 500}).
 */
final class IdempotentTransactionRolledBackException extends IdempotencyException {

	IdempotentTransactionRolledBackException() {
		super(HttpStatus.INTERNAL_SERVER_ERROR, "rolled-back", "Idempotent operation rolled back",
				"The operation's transaction was rolled back, so it had no effect and nothing was stored; retry.", null,
				null);
	}

}
