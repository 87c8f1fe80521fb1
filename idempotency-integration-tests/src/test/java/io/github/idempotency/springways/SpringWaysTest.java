package io.github.idempotency.springways;

import java.util.UUID;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.springways.SpringWaysApplication.Effects;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

/**
 * The base of the tests of {@link SpringWaysApplication} on real PostgreSQL; they share one
 * database and one application context.
 */
@SpringBootTest(classes = SpringWaysApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.flyway.locations=classpath:db/webtest",
				"idempotency.classification.final-exceptions="
						+ "io.github.idempotency.springways.Postings.PostingRejectedException",
				"idempotency.operations.slow.lease=1500ms", "idempotency.operations.waiting.wait=20s",
				"management.endpoints.web.exposure.include=idempotency" })
abstract class SpringWaysTest {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("springways");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		registry.add("spring.datasource.url", database::url);
		registry.add("spring.datasource.username", database::username);
		registry.add("spring.datasource.password", database::password);
	}

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	Effects effects;

	Http http() {
		return new Http(this.port);
	}

	/**
	 * Count the records that hold a key: in progress or completed. A released record, kept for
	 * its attempts, holds no result, and a retry runs again.
	 */
	long records(String key) {
		return this.jdbc.queryForObject("SELECT count(*) FROM idempotency_record WHERE idempotency_key LIKE ? "
				+ "AND status <> 'RELEASED'",
				Long.class, "%" + key);
	}

	String status(String key) {
		return this.jdbc.queryForList("SELECT status FROM idempotency_record WHERE idempotency_key LIKE ?",
				String.class, "%" + key).stream().findFirst().orElse(null);
	}

	static String unique() {
		return UUID.randomUUID().toString();
	}

	static String json(String value) {
		return "{\"value\":\"" + value + "\"}";
	}

}
