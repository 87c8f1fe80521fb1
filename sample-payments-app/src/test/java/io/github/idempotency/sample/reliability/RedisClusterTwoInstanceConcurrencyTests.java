package io.github.idempotency.sample.reliability;

/**
 * Concurrent duplicates of {@code POST /payments}, spread over two instances of the sample with
 * its {@code redis} profile on one Redis Cluster of three primaries (the payments on PostgreSQL),
 * make one payment and one charge per key and are each answered with the original, a
 * byte-identical replay or an in-progress conflict (SPEC 6 and 10).
 */
class RedisClusterTwoInstanceConcurrencyTests extends LeasedTwoInstanceScenarios {

	RedisClusterTwoInstanceConcurrencyTests() {
		super("tworediscluster", () -> RedisRecords.cluster("tworediscluster"));
	}

}
