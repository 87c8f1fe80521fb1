package io.github.idempotency.engine;

import org.junit.jupiter.api.Test;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's own class path has Spring Data Redis and Spring JDBC but neither store module, as an
 * application that depends on the engine and forgot its store's module does.
 */
class NoIdempotencyStoreFailureAnalyzerTests {

	@Test
	void theClassPathOfTheseTestsHasTheStoresTechnologiesWithoutTheirModules() {
		ClassLoader loader = getClass().getClassLoader();
		assertThat(ClassUtils.isPresent("org.springframework.data.redis.connection.RedisConnectionFactory", loader))
			.isTrue();
		assertThat(ClassUtils.isPresent("org.springframework.jdbc.core.JdbcTemplate", loader)).isTrue();
		assertThat(ClassUtils.isPresent("io.github.idempotency.redis.IdempotencyRedisAutoConfiguration", loader))
			.isFalse();
		assertThat(ClassUtils.isPresent("io.github.idempotency.jdbc.IdempotencyJdbcAutoConfiguration", loader))
			.isFalse();
	}

	@Test
	void theFailureNamesTheStoreModulesThatTheApplicationLacks() {
		FailureAnalysis analysis = new NoIdempotencyStoreFailureAnalyzer().analyze(new NoIdempotencyStoreException());
		assertThat(analysis.getDescription())
			.contains("Spring Data Redis is on the class path but io.github.idempotency:idempotency-redis")
			.contains("Spring JDBC is on the class path but io.github.idempotency:idempotency-jdbc");
		assertThat(analysis.getAction()).contains("add io.github.idempotency:idempotency-redis")
			.contains("An application on R2DBC has none")
			.contains("@IdempotencyDataSource and @Bean(defaultCandidate = false)");
	}

}
