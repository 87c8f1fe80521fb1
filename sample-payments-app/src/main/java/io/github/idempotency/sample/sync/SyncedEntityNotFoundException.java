package io.github.idempotency.sample.sync;

/**
 * Thrown when a synchronised product or user does not exist.
 */
public class SyncedEntityNotFoundException extends RuntimeException {

	SyncedEntityNotFoundException(String entity, String id) {
		super("There is no " + entity + " " + id + ".");
	}

}
