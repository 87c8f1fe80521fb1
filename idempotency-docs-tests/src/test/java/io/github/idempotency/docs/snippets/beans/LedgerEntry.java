package io.github.idempotency.docs.snippets.beans;

/**
 * An entry of the ledger, the return value a duplicate call gets back.
 *
 * @param id the entry's id, new each time the method runs
 * @param paymentId the payment it posts
 * @param amount its amount
 */
public record LedgerEntry(String id, String paymentId, long amount) {

}
