package io.github.idempotency.docs.snippets.beans;

/**
 * The message a payment's success sends.
 *
 * @param paymentId the payment
 * @param amount its amount
 */
public record PaymentSucceeded(String paymentId, long amount) {

}
