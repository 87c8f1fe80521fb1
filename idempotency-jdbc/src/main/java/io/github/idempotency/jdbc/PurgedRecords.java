package io.github.idempotency.jdbc;

/**
 * The records of one operation that one purge batch deleted.
 *
 * @param operation the operation name
 * @param deleted how many records were deleted
 * @param archived how many of them were copied to the archive table first
 */
record PurgedRecords(String operation, long deleted, long archived) {

}
