package io.github.idempotency.redis;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Health of the Redis idempotency store: up when Redis answers {@code PING} (every node, on Redis
 * Cluster), down otherwise. Stuck records are not counted here, as that takes a pass over every
 * record; the {@code idempotency} endpoint counts them.
 */
class RedisIdempotencyStoreHealthIndicator extends AbstractHealthIndicator {

	private final RedisConnectionFactory connectionFactory;

	public RedisIdempotencyStoreHealthIndicator(RedisConnectionFactory connectionFactory) {
		super("Idempotency store health check failed");
		this.connectionFactory = connectionFactory;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			connection.ping();
			builder.up()
				.withDetail("store", "redis")
				.withDetail("mode", (connection instanceof RedisClusterConnection) ? "cluster" : "standalone");
		}
	}

}
