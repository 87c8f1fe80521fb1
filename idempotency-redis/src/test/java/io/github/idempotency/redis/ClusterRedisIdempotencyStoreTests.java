package io.github.idempotency.redis;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * {@link RedisIdempotencyStore} on a Redis Cluster of three primaries, held to the published
 * contract.
 */
class ClusterRedisIdempotencyStoreTests extends AbstractRedisIdempotencyStoreTests {

	private static final String PREFIX = "storecontract:";

	private static LettuceConnectionFactory connectionFactory;

	private static RedisIdempotencyStore store;

	@BeforeAll
	static void connect() {
		connectionFactory = TestRedis.cluster();
		store = new RedisIdempotencyStore(connectionFactory, PREFIX);
	}

	@AfterAll
	static void disconnect() {
		connectionFactory.destroy();
	}

	@Override
	protected RedisIdempotencyStore store() {
		return store;
	}

}
