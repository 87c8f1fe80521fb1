package io.github.idempotency.web.servlet;

/**
 * An asynchronous request ended without the dispatch that answers it, such as one whose client
 * went away.
 */
final class AsyncRequestEndedUnseenException extends IllegalStateException {

	AsyncRequestEndedUnseenException() {
		super("The asynchronous request ended without a last dispatch");
	}

}
