package io.github.idempotency.adoption.clinic;

/**
 * Published, inside the transaction that adds it, when a pet has been added.
 *
 * @param ownerId the id of the pet's owner
 * @param name the new pet's name
 */
record PetAdded(int ownerId, String name) {

}
