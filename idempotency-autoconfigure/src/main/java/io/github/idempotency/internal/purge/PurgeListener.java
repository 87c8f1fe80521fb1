package io.github.idempotency.internal.purge;

/**
 * Callback for what the purge does, such as metrics; every method has a no-op default.
 */
public interface PurgeListener {

	/**
	 * A listener that does nothing.
	 */
	PurgeListener NONE = new PurgeListener() {
	};

	/**
	 * One batch committed.
	 * @param reason why its records were deleted
	 * @param deleted how many records it deleted
	 * @param archived how many of them it copied to the archive table first
	 */
	default void onBatch(PurgeReason reason, long deleted, long archived) {
	}

	/**
	 * A purge run ended, however it ended.
	 * @param result what it did
	 */
	default void onRunFinished(PurgeResult result) {
	}

}
