package io.github.idempotency.sample.sessions;

import java.util.List;

/**
 * Thrown when a cart update is malformed, before its key is claimed.
 */
public class InvalidCartUpdateException extends RuntimeException {

	private final List<String> errors;

	public InvalidCartUpdateException(List<String> errors) {
		super(String.join("; ", errors) + ".");
		this.errors = List.copyOf(errors);
	}

	/**
	 * Return what is wrong with the update, one entry per problem.
	 * @return the errors
	 */
	public List<String> getErrors() {
		return this.errors;
	}

}
