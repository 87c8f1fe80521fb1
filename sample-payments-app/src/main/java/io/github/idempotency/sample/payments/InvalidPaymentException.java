package io.github.idempotency.sample.payments;

/**
 * Thrown when a payment request is invalid; final, so its answer is stored and replayed.
 */
public class InvalidPaymentException extends RuntimeException {

	public InvalidPaymentException(String message) {
		super(message);
	}

}
