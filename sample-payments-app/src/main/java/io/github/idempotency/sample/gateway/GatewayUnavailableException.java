package io.github.idempotency.sample.gateway;

/**
 * Thrown when the gateway cannot be reached; the charge did not happen and may be retried.
 */
public class GatewayUnavailableException extends RuntimeException {

	public GatewayUnavailableException(String message) {
		super(message);
	}

}
