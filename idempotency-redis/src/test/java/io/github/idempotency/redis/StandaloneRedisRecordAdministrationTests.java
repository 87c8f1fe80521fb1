package io.github.idempotency.redis;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.github.idempotency.testsupport.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Operator access to the records of the Redis store on a standalone server.
 */
class StandaloneRedisRecordAdministrationTests extends RedisRecordAdministrationTests {

	private static final String PREFIX = RedisTestServer.local().uniquePrefix("admin");

	private static LettuceConnectionFactory connectionFactory;

	@BeforeAll
	static void connect() {
		connectionFactory = TestRedis.standalone();
	}

	@AfterAll
	static void cleanUp() {
		connectionFactory.destroy();
		RedisTestServer.local().deleteKeys(PREFIX);
	}

	@Override
	protected RedisConnectionFactory connectionFactory() {
		return connectionFactory;
	}

	@Override
	protected String prefix() {
		return PREFIX;
	}

	@Test
	void healthIsDownWhenRedisDoesNotAnswer() {
		LettuceConnectionFactory nowhere = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", 1));
		nowhere.afterPropertiesSet();
		nowhere.start();
		try {
			assertThat(new RedisIdempotencyStoreHealthIndicator(nowhere).health().getStatus()).isEqualTo(Status.DOWN);
		}
		finally {
			nowhere.destroy();
		}
	}

}
