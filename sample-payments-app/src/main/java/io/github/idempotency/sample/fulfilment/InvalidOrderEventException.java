package io.github.idempotency.sample.fulfilment;

/**
 * An order event that can never be shipped; final, so it is stored, goes to the dead-letter topic
 * once, and every copy of it after that goes there without running.
 */
public class InvalidOrderEventException extends RuntimeException {

	public InvalidOrderEventException(String message) {
		super(message);
	}

}
