package io.github.idempotency.redis;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.github.idempotency.testsupport.RedisTestServer;

/**
 * {@link RedisIdempotencyStore} on a standalone Redis server, held to the published contract.
 */
class StandaloneRedisIdempotencyStoreTests extends AbstractRedisIdempotencyStoreTests {

	private static final String PREFIX = RedisTestServer.local().uniquePrefix("storecontract");

	private static LettuceConnectionFactory connectionFactory;

	private static RedisIdempotencyStore store;

	@BeforeAll
	static void connect() {
		connectionFactory = TestRedis.standalone();
		store = new RedisIdempotencyStore(connectionFactory, PREFIX);
	}

	@AfterAll
	static void cleanUp() {
		connectionFactory.destroy();
		RedisTestServer.local().deleteKeys(PREFIX);
	}

	@Override
	protected RedisIdempotencyStore store() {
		return store;
	}

}
