package io.github.idempotency.sample.sync;

import java.util.List;

/**
 * Thrown, before the key is claimed, when a sync request is malformed: its refusal consumes no
 * version.
 */
public class InvalidSyncException extends RuntimeException {

	private final List<String> errors;

	public InvalidSyncException(List<String> errors) {
		super(String.join("; ", errors) + ".");
		this.errors = List.copyOf(errors);
	}

	/**
	 * Return what is wrong with the request, one entry per problem.
	 * @return the errors
	 */
	public List<String> getErrors() {
		return this.errors;
	}

}
