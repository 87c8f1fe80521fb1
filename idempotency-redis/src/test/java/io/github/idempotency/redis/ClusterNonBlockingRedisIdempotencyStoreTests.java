package io.github.idempotency.redis;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.github.idempotency.store.NonBlockingIdempotencyStore;
import io.github.idempotency.testsupport.store.NonBlockingIdempotencyStoreContractTests;

/**
 * The asynchronous calls of {@link NonBlockingRedisIdempotencyStore} on a Redis Cluster of three primaries, held to the
 * published contract.
 */
class ClusterNonBlockingRedisIdempotencyStoreTests extends NonBlockingIdempotencyStoreContractTests {

	private static final String PREFIX = "nonblocking:";

	private static LettuceConnectionFactory connectionFactory;

	private static NonBlockingRedisIdempotencyStore store;

	@BeforeAll
	static void connect() {
		connectionFactory = TestRedis.cluster();
		store = new NonBlockingRedisIdempotencyStore(connectionFactory, PREFIX);
	}

	@AfterAll
	static void cleanUp() {
		connectionFactory.destroy();
	}

	@Override
	protected NonBlockingIdempotencyStore nonBlockingStore() {
		return store;
	}

}
