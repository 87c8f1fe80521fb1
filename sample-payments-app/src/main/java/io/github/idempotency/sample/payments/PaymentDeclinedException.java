package io.github.idempotency.sample.payments;

/**
 * Thrown when the gateway declined a payment; final, so its answer is stored and replayed.
 */
public class PaymentDeclinedException extends RuntimeException {

	private final PaymentResponse payment;

	public PaymentDeclinedException(PaymentResponse payment) {
		super("The payment gateway declined the charge.");
		this.payment = payment;
	}

	public PaymentResponse getPayment() {
		return this.payment;
	}

}
