package io.github.idempotency.docs.snippets.annotate;

/**
 * The answer of {@code POST /payments}: a new id each time the operation runs.
 */
record PaymentResponse(String id, String customerId, long amount, String currency, String downstreamKey) {

}
