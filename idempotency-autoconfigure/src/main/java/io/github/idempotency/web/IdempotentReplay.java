package io.github.idempotency.web;

import io.github.idempotency.store.StoredResponse;

/**
 * Carries a stored response out of the handler call to {@link IdempotencyExceptionResolver},
 * which writes it instead of the handler's own response.
 */
final class IdempotentReplay extends RuntimeException {

	private final transient StoredResponse response;

	IdempotentReplay(StoredResponse response) {
		super("Replay of a stored response", null, false, false);
		this.response = response;
	}

	StoredResponse response() {
		return this.response;
	}

}
