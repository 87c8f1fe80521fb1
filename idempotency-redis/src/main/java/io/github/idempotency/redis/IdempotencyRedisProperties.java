package io.github.idempotency.redis;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the Redis store.
 */
@ConfigurationProperties("idempotency.redis")
public class IdempotencyRedisProperties {

	static final String DEFAULT_KEY_PREFIX = "idempotency:";

	static final Duration DEFAULT_WAIT_TIMEOUT = Duration.ofMillis(500);

	/**
	 * Prefix of the Redis keys of idempotency records. Must not contain '{' or '}', which
	 * would move the hash tag that keeps each record in one Redis Cluster slot.
	 */
	private String keyPrefix = DEFAULT_KEY_PREFIX;

	/**
	 * How many replicas must acknowledge each claim and completion (Redis WAIT) before the
	 * request goes on; fewer within the timeout answers 503. Zero does not wait.
	 */
	private int waitReplicas;

	/**
	 * How long a claim or completion waits for its replicas' acknowledgements.
	 */
	private Duration waitTimeout = DEFAULT_WAIT_TIMEOUT;

	public String getKeyPrefix() {
		return this.keyPrefix;
	}

	public void setKeyPrefix(String keyPrefix) {
		this.keyPrefix = keyPrefix;
	}

	public int getWaitReplicas() {
		return this.waitReplicas;
	}

	public void setWaitReplicas(int waitReplicas) {
		this.waitReplicas = waitReplicas;
	}

	public Duration getWaitTimeout() {
		return this.waitTimeout;
	}

	public void setWaitTimeout(Duration waitTimeout) {
		this.waitTimeout = waitTimeout;
	}

}
