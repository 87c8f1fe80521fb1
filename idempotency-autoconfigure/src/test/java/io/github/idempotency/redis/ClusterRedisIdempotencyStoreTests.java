package io.github.idempotency.redis;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.testsupport.store.IdempotencyStoreContractTests;

/**
 * {@link RedisIdempotencyStore} on a Redis Cluster of three primaries, held to the contract of
 * every store.
 */
class ClusterRedisIdempotencyStoreTests extends IdempotencyStoreContractTests {

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
	protected IdempotencyStore store() {
		return store;
	}

}
