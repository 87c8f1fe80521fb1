package io.github.idempotency.engine;

import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.util.ClassUtils;

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
				neither for the store it uses (idempotency.store.type, or JDBC then Redis when not set).""" + missingModules(),
				"""
						Configure a DataSource (spring.datasource.url, or an embedded database such as H2 on the \
						classpath), with io.github.idempotency:idempotency-jdbc (the starter brings it). An \
						application on R2DBC has none, whatever spring.datasource.url says: Spring Boot configures no \
						DataSource beside an R2DBC ConnectionFactory; declare one for the records, qualified \
						@IdempotencyDataSource and @Bean(defaultCandidate = false) so that it stays out of the \
						application's way. Or add \
						io.github.idempotency:idempotency-redis and spring-boot-starter-data-redis and point \
						spring.data.redis.* at Redis (standalone or Redis Cluster), setting \
						idempotency.store.type=redis if the application also has a DataSource; or define an \
						IdempotencyStore bean of your own. To run @Idempotent methods unguarded on purpose, set \
						idempotency.enabled=false.""",
				cause);
	}

	/**
	 * Name the store modules whose technology the application has without the module itself.
	 */
	private static String missingModules() {
		List<String> missing = new ArrayList<>();
		if (present("org.springframework.data.redis.connection.RedisConnectionFactory")
				&& !present("io.github.idempotency.redis.IdempotencyRedisAutoConfiguration")) {
			missing.add("Spring Data Redis is on the class path but io.github.idempotency:idempotency-redis, "
					+ "whose auto-configuration makes the Redis store, is not.");
		}
		if (present("javax.sql.DataSource") && present("org.springframework.jdbc.core.JdbcTemplate")
				&& !present("io.github.idempotency.jdbc.IdempotencyJdbcAutoConfiguration")) {
			missing.add("Spring JDBC is on the class path but io.github.idempotency:idempotency-jdbc, "
					+ "whose auto-configuration makes the JDBC store, is not.");
		}
		return missing.isEmpty() ? "" : " " + String.join(" ", missing);
	}

	private static boolean present(String className) {
		return ClassUtils.isPresent(className, NoIdempotencyStoreFailureAnalyzer.class.getClassLoader());
	}

}
