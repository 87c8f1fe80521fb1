package io.github.idempotency.sample.orders;

/**
 * Thrown when an order request is malformed.
 */
public class InvalidOrderException extends RuntimeException {

	public InvalidOrderException(String message) {
		super(message);
	}

}
