package io.github.idempotency.adoption.clinic;

/**
 * Thrown when no owner has the requested id.
 */
class OwnerNotFoundException extends RuntimeException {

	OwnerNotFoundException(int ownerId) {
		super("No owner with id " + ownerId);
	}

}
