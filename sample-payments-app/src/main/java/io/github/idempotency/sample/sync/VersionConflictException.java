package io.github.idempotency.sample.sync;

/**
 * Thrown when an update was not built on the current version of its entity.
 */
public abstract class VersionConflictException extends RuntimeException {

	private final SyncTarget target;

	private final long currentVersion;

	VersionConflictException(SyncTarget target, long currentVersion, String message) {
		super(message);
		this.target = target;
		this.currentVersion = currentVersion;
	}

	SyncTarget getTarget() {
		return this.target;
	}

	long getCurrentVersion() {
		return this.currentVersion;
	}

}
