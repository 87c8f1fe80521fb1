package io.github.idempotency.sample.reliability;

/**
 * {@code kill -9} of the packaged application with its {@code redis} profile, its records on a
 * standalone Redis and its payments on PostgreSQL, at each point of a payment, then a restart: the
 * claim outlives the process in Redis until its lease runs out, a retry then takes it over and the
 * payment ends with exactly one charge (SPEC 6 and 10).
 */
class RedisProcessCrashIT extends LeasedProcessCrashScenarios {

	RedisProcessCrashIT() {
		super("redis", () -> RedisRecords.standalone("crashredis"));
	}

}
