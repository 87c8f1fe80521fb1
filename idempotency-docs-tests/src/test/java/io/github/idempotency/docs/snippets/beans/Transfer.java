package io.github.idempotency.docs.snippets.beans;

/**
 * A transfer message.
 *
 * @param id the transfer's id
 * @param amount its amount
 */
record Transfer(String id, long amount) {

}
