package io.github.idempotency.sample.agents;

/**
 * Thrown, before the key is claimed, when a task request has no usable task id or input.
 */
public class InvalidAgentTaskException extends RuntimeException {

	public InvalidAgentTaskException(String message) {
		super(message);
	}

}
