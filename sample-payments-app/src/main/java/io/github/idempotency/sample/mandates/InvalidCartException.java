package io.github.idempotency.sample.mandates;

import java.util.List;

/**
 * Thrown when a cart cannot be turned into a mandate; final, so its answer is stored and replayed.
 */
public class InvalidCartException extends RuntimeException {

	private final List<String> errors;

	public InvalidCartException(List<String> errors) {
		super(String.join("; ", errors) + ".");
		this.errors = List.copyOf(errors);
	}

	/**
	 * Return what is wrong with the cart, one entry per problem.
	 * @return the errors
	 */
	public List<String> getErrors() {
		return this.errors;
	}

}
