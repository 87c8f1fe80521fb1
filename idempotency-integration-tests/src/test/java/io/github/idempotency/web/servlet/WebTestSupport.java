package io.github.idempotency.web.servlet;

import org.springframework.test.context.DynamicPropertyRegistry;

import io.github.idempotency.testsupport.PostgresTestDatabase;

/**
 * Points a {@link WebTestApplication} test at a fresh PostgreSQL database.
 */
public final class WebTestSupport {

	private WebTestSupport() {
	}

	public static void register(DynamicPropertyRegistry registry, PostgresTestDatabase database) {
		registry.add("spring.datasource.url", database::url);
		registry.add("spring.datasource.username", database::username);
		registry.add("spring.datasource.password", database::password);
		registry.add("spring.flyway.locations", () -> "classpath:db/webtest");
	}

}
