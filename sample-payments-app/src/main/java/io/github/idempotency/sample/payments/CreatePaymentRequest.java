package io.github.idempotency.sample.payments;

/**
 * The body of {@code POST /payments}; it is validated after the idempotency key is claimed, so
 * that a rejection is stored and replayed like any other final answer.
 *
 * @param customerId the customer to charge
 * @param amount the amount in minor units, such as cents
 * @param currency the ISO 4217 currency code
 */
public record CreatePaymentRequest(String customerId, Long amount, String currency) {

}
