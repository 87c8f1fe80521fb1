package io.github.idempotency.store;

/**
 * How many records one operation has.
 *
 * @param operation the operation name
 * @param inProgress records claimed by a request that has not finished
 * @param completed records holding a response to replay
 * @param expired records past their expiry, due to be purged
 * @param stuck records in progress past their lease that no retry took over
 */
public record RecordCounts(String operation, long inProgress, long completed, long expired, long stuck) {

	/**
	 * Return the number of records.
	 * @return the records in progress and the completed ones
	 */
	public long total() {
		return this.inProgress + this.completed;
	}

}
