package io.github.idempotency.redis;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.github.idempotency.testsupport.RedisTestServer;
import io.github.idempotency.store.NonBlockingIdempotencyStore;
import io.github.idempotency.testsupport.store.NonBlockingIdempotencyStoreContractTests;

/**
 * The asynchronous calls of {@link NonBlockingRedisIdempotencyStore} on a standalone Redis server, held to the
 * published contract.
 */
class StandaloneNonBlockingRedisIdempotencyStoreTests extends NonBlockingIdempotencyStoreContractTests {

	private static final String PREFIX = RedisTestServer.local().uniquePrefix("nonblocking");

	private static LettuceConnectionFactory connectionFactory;

	private static NonBlockingRedisIdempotencyStore store;

	@BeforeAll
	static void connect() {
		connectionFactory = TestRedis.standalone();
		store = new NonBlockingRedisIdempotencyStore(connectionFactory, PREFIX);
	}

	@AfterAll
	static void cleanUp() {
		connectionFactory.destroy();
		RedisTestServer.local().deleteKeys(PREFIX);
	}

	@Override
	protected NonBlockingIdempotencyStore nonBlockingStore() {
		return store;
	}

}
