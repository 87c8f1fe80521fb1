package io.github.idempotency.sample.orders;

/**
 * Thrown when an order does not exist.
 */
public class OrderNotFoundException extends RuntimeException {

	public OrderNotFoundException(long id) {
		super("Order " + id + " does not exist.");
	}

}
