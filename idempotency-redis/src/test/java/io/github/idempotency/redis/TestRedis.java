package io.github.idempotency.redis;

import java.util.List;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.testsupport.RedisTestCluster;
import io.github.idempotency.testsupport.RedisTestServer;

/**
 * Connections to the real Redis servers of the tests, and what tests do to records behind the
 * store's back: move their times into the past, as if a TTL or a lease had run out, without
 * evicting them, as Redis may not have yet.
 */
final class TestRedis {

	static final long PAST = 946684800000L;

	private static final RedisScript<Long> SET_FIELD = RedisScript.of("""
			if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
			redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
			return 1""", Long.class);

	private TestRedis() {
	}

	/**
	 * Connect to the standalone server on 127.0.0.1:6379.
	 * @return a started connection factory
	 */
	static LettuceConnectionFactory standalone() {
		RedisTestServer server = RedisTestServer.local();
		return started(new LettuceConnectionFactory(new RedisStandaloneConfiguration(server.host(), server.port())));
	}

	/**
	 * Connect to the Redis Cluster of the tests, starting it on first use.
	 * @return a started connection factory
	 */
	static LettuceConnectionFactory cluster() {
		return started(new LettuceConnectionFactory(new RedisClusterConfiguration(RedisTestCluster.get().nodes())));
	}

	private static LettuceConnectionFactory started(LettuceConnectionFactory factory) {
		factory.afterPropertiesSet();
		if (!factory.isRunning()) {
			factory.start();
		}
		return factory;
	}

	static void expire(RedisTemplate<byte[], byte[]> redis, RedisRecordKeys keys, IdempotencyKey key) {
		setField(redis, keys.of(key), "expires_at", PAST);
	}

	static void runOutLease(RedisTemplate<byte[], byte[]> redis, RedisRecordKeys keys, IdempotencyKey key) {
		setField(redis, keys.of(key), "locked_until", PAST);
	}

	static void setField(RedisTemplate<byte[], byte[]> redis, byte[] redisKey, String field, long value) {
		Long set = redis.execute(SET_FIELD, List.of(redisKey), RedisReplies.utf8(field), RedisReplies.utf8(value));
		if (set == null || set != 1) {
			throw new IllegalStateException("Expected a record to change, but there is none");
		}
	}

}
