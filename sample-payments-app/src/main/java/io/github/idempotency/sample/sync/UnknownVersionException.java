package io.github.idempotency.sample.sync;

/**
 * Thrown, before the key is claimed, when an update was built on a version its entity has not
 * reached.
 */
public class UnknownVersionException extends VersionConflictException {

	UnknownVersionException(SyncTarget target, long currentVersion) {
		super(target, currentVersion,
				"The update of " + target.entity() + " " + target.id() + " was built on version " + target.baseVersion()
						+ ", which does not exist; the current version is " + currentVersion
						+ ((currentVersion != 0) ? "."
								: " (no such " + target.entity() + " yet: create it with baseVersion 0)."));
	}

}
