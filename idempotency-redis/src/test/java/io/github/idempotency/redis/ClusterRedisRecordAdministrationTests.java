package io.github.idempotency.redis;

import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Operator access to the records of the Redis store on a Redis Cluster, whose records spread over
 * three primaries.
 */
class ClusterRedisRecordAdministrationTests extends RedisRecordAdministrationTests {

	private static final String PREFIX = "admin-" + UUID.randomUUID().toString().substring(0, 8) + ":";

	private static LettuceConnectionFactory connectionFactory;

	@BeforeAll
	static void connect() {
		connectionFactory = TestRedis.cluster();
	}

	@AfterAll
	static void disconnect() {
		connectionFactory.destroy();
	}

	@Override
	protected RedisConnectionFactory connectionFactory() {
		return connectionFactory;
	}

	@Override
	protected String prefix() {
		return PREFIX;
	}

}
