package io.github.idempotency.sample.intents;

import java.util.List;

/**
 * Thrown when an intent cannot become a mandate; final, so its answer is stored and replayed.
 */
public class InvalidIntentException extends RuntimeException {

	private final List<String> errors;

	public InvalidIntentException(List<String> errors) {
		super(String.join("; ", errors) + ".");
		this.errors = List.copyOf(errors);
	}

	/**
	 * Return what is wrong with the intent, one entry per problem.
	 * @return the errors
	 */
	public List<String> getErrors() {
		return this.errors;
	}

}
