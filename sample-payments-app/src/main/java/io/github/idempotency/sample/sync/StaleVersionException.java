package io.github.idempotency.sample.sync;

/**
 * Thrown when an update was built on a version that another update already replaced; final, so
 * its answer is stored and replayed.
 */
public class StaleVersionException extends VersionConflictException {

	StaleVersionException(SyncTarget target, long currentVersion) {
		super(target, currentVersion,
				"The update of " + target.entity() + " " + target.id() + " was built on version " + target.baseVersion()
						+ ", which another update already replaced or is replacing; the current version is "
						+ currentVersion + ". Read it, rebuild the update on it and send that with its baseVersion.");
	}

}
