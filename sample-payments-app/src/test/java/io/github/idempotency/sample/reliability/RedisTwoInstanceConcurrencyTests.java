package io.github.idempotency.sample.reliability;

/**
 * Concurrent duplicates of {@code POST /payments}, spread over two instances of the sample with
 * its {@code redis} profile on one standalone Redis (the payments on PostgreSQL), make one payment
 * and one charge per key and are each answered with the original, a byte-identical replay or an
 * in-progress conflict (SPEC 6 and 10).
 */
class RedisTwoInstanceConcurrencyTests extends LeasedTwoInstanceScenarios {

	RedisTwoInstanceConcurrencyTests() {
		super("tworedis", () -> RedisRecords.standalone("tworedis"));
	}

}
