package io.github.idempotency.engine;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up without a store for idempotency records, and what to do about it.
 */
class NoIdempotencyStoreFailureAnalyzer extends AbstractFailureAnalyzer<NoIdempotencyStoreException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, NoIdempotencyStoreException cause) {
		return new FailureAnalysis("""
				The idempotency starter has no store for its records, so @Idempotent methods would run \
				unguarded: a retry would run them again. The JDBC store needs exactly one DataSource (or a \
				@Primary one); the Redis store needs one RedisConnectionFactory, on Lettuce; this application has \
				neither for the store it uses (idempotency.store.type, or JDBC then Redis when not set).""", """
				Configure a DataSource (spring.datasource.url, or an embedded database such as H2 on the \
				classpath); or add spring-boot-starter-data-redis and point spring.data.redis.* at Redis \
				(standalone or Redis Cluster), setting idempotency.store.type=redis if the application \
				also has a DataSource; or define an IdempotencyStore bean of your own. To run @Idempotent \
				methods unguarded on purpose, set idempotency.enabled=false.""", cause);
	}

}
