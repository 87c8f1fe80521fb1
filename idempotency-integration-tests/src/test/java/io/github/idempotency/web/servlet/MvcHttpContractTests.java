package io.github.idempotency.web.servlet;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.testsupport.PostgresTestDatabase;
import io.github.idempotency.web.HttpContractTests;

/**
 * The HTTP contract on Spring MVC, with records in PostgreSQL.
 */
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "idempotency.stored-headers=X-Request-Trace", "idempotency.max-body-size=2KB" })
class MvcHttpContractTests extends HttpContractTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webcontract");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		WebTestSupport.register(registry, database);
	}

}
