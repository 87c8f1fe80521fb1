package io.github.idempotency.sample.payments;

/**
 * Thrown when a payment does not exist in the caller's tenant.
 */
public class PaymentNotFoundException extends RuntimeException {

	public PaymentNotFoundException(long id) {
		super("Payment " + id + " does not exist.");
	}

}
