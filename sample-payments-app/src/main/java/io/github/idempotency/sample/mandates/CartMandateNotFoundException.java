package io.github.idempotency.sample.mandates;

/**
 * Thrown when a cart mandate does not exist.
 */
public class CartMandateNotFoundException extends RuntimeException {

	public CartMandateNotFoundException(String id) {
		super("Cart mandate " + id + " does not exist.");
	}

}
