package io.github.idempotency.sample.webhooks;

import java.util.List;

/**
 * Thrown when a gateway webhook names no known event type or no valid transaction, before its key
 * is claimed.
 */
public class InvalidGatewayEventException extends RuntimeException {

	private final List<String> errors;

	public InvalidGatewayEventException(List<String> errors) {
		super(String.join("; ", errors) + ".");
		this.errors = List.copyOf(errors);
	}

	/**
	 * Return what is wrong with the event, one entry per problem.
	 * @return the errors
	 */
	public List<String> getErrors() {
		return this.errors;
	}

}
