package io.github.idempotency.sample.intents;

/**
 * Thrown when an intent mandate does not exist.
 */
public class IntentMandateNotFoundException extends RuntimeException {

	public IntentMandateNotFoundException(String id) {
		super("Intent mandate " + id + " does not exist.");
	}

}
