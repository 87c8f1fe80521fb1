package io.github.idempotency.docs.snippets.kafka;

/**
 * An order that can never be placed: a final failure.
 */
public class InvalidOrderException extends RuntimeException {

	public InvalidOrderException(String message) {
		super(message);
	}

}
