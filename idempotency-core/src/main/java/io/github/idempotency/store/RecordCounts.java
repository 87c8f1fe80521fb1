package io.github.idempotency.store;

/**
 * How many records one operation has.
 *
 * @param operation the operation name
 * @param inProgress records claimed by a request that has not finished
 * @param completed records holding a response to replay
 * @param expired records past their expiry, due to be purged
 * @param stuck records in progress past their lease that no retry took over
 * @param released records given up by a transient failure, kept for their attempts until they
 * expire
 */
public record RecordCounts(String operation, long inProgress, long completed, long expired, long stuck,
		long released) {

	/**
	 * Create the counts of an operation without released records.
	 * @param operation the operation name
	 * @param inProgress records claimed by a request that has not finished
	 * @param completed records holding a response to replay
	 * @param expired records past their expiry, due to be purged
	 * @param stuck records in progress past their lease that no retry took over
	 */
	public RecordCounts(String operation, long inProgress, long completed, long expired, long stuck) {
		this(operation, inProgress, completed, expired, stuck, 0);
	}

	/**
	 * Return the number of records.
	 * @return the records in progress, the completed and the released ones
	 */
	public long total() {
		return this.inProgress + this.completed + this.released;
	}

}
