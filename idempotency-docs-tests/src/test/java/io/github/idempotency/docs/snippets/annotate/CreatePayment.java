package io.github.idempotency.docs.snippets.annotate;

/**
 * The body of {@code POST /payments}.
 */
record CreatePayment(String customerId, long amount, String currency) {

}
