package io.github.idempotency.sample.sync;

/**
 * What a sync request updates: an entity, and the version its update was built on.
 *
 * @param entity {@code product} or {@code user}
 * @param id the entity's id
 * @param baseVersion the version the update was built on
 */
record SyncTarget(String entity, String id, long baseVersion) {

	/**
	 * Return the idempotency key of the update.
	 * @return {@code sync:{entity}:{id}:{baseVersion}}
	 */
	String key() {
		return "sync:" + this.entity + ":" + this.id + ":" + this.baseVersion;
	}

	/**
	 * Make sure the update was built on the entity's current version.
	 * @param currentVersion the version now, {@code 0} if there is no such entity
	 * @throws StaleVersionException if another update replaced the base version
	 * @throws UnknownVersionException if the entity has not reached the base version
	 */
	void requireCurrent(long currentVersion) {
		if (this.baseVersion < currentVersion) {
			throw new StaleVersionException(this, currentVersion);
		}
		if (this.baseVersion > currentVersion) {
			throw new UnknownVersionException(this, currentVersion);
		}
	}

}
