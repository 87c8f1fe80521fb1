package io.github.idempotency.web.reactive;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.testsupport.PostgresTestDatabase;
import io.github.idempotency.testsupport.RedisTestServer;
import io.github.idempotency.web.HttpContractTests;
import io.github.idempotency.web.servlet.WebTestSupport;

/**
 * The HTTP contract on Spring WebFlux (Reactor Netty), with records in Redis (the effects the
 * tests count stay in PostgreSQL).
 */
@SpringBootTest(classes = ReactiveWebTestApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "idempotency.store.type=redis",
				"idempotency.stored-headers=X-Request-Trace", "idempotency.max-body-size=2KB" })
class WebFluxRedisHttpContractTests extends HttpContractTests {

	static {
		ReactiveTests.installBlockHound();
	}

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webfluxredis");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		WebTestSupport.register(registry, database);
		registry.add("idempotency.redis.key-prefix", () -> RedisTestServer.local().uniquePrefix("webflux"));
	}

}
