package io.github.idempotency.adoption.clinic;

/**
 * Published, inside the transaction that adds it, when an owner has been added.
 *
 * @param ownerId the new owner's id
 * @param lastName the new owner's last name
 */
record OwnerAdded(int ownerId, String lastName) {

}
