package io.github.idempotency.sample;

import java.net.http.HttpResponse;
import java.sql.Connection;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.MariaDbTestDatabase;

import static io.github.idempotency.sample.support.Payments.body;
import static io.github.idempotency.sample.support.Payments.customer;
import static io.github.idempotency.sample.support.Payments.json;
import static io.github.idempotency.sample.support.Payments.newKey;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application starts with its {@code mariadb} profile on MariaDB, with Hibernate validating the
 * schema that its own MariaDB migrations and the starter's created, and a payment runs once and
 * replays byte for byte from the records there.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("mariadb")
class MariaDbProfileStartupTests {

	static final MariaDbTestDatabase database = MariaDbTestDatabase.create("startup");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		registry.add("spring.datasource.url", database::url);
		registry.add("spring.datasource.username", database::username);
		registry.add("spring.datasource.password", database::password);
		registry.add("spring.datasource.hikari.maximum-pool-size", () -> 5);
		registry.add("spring.datasource.hikari.minimum-idle", () -> 0);
	}

	@LocalServerPort
	int port;

	@Autowired
	DataSource dataSource;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	Environment environment;

	@Test
	void startsOnMariadbWithValidatedSchema() throws Exception {
		try (Connection connection = this.dataSource.getConnection()) {
			assertThat(connection.getMetaData().getDatabaseProductName()).isEqualTo("MariaDB");
			assertThat(connection.getCatalog()).isEqualTo(database.name());
		}
		assertThat(this.environment.getProperty("spring.jpa.hibernate.ddl-auto")).isEqualTo("validate");
		assertThat(this.jdbc.queryForList("SELECT version FROM flyway_schema_history "
				+ "WHERE success AND type = 'SQL' ORDER BY installed_rank", String.class))
			.containsExactly("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14");
		assertThat(this.jdbc.queryForList("SELECT version FROM idempotency_schema_history "
				+ "WHERE success AND type = 'SQL' ORDER BY installed_rank", String.class))
			.containsExactly("1", "2", "3", "4", "5");
	}

	@Test
	void aPaymentRunsOnceAndItsRetryReplaysItByteForByte() {
		Http http = new Http(this.port);
		String key = newKey();
		String payment = body(customer("maria-"), 4200, "EUR");
		HttpResponse<byte[]> first = http.post("/payments").key(key).json(payment).send();
		assertThat(first.statusCode()).isEqualTo(201);
		HttpResponse<byte[]> retry = http.post("/payments").key(key).json(payment).send();
		assertThat(retry.statusCode()).isEqualTo(201);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(this.jdbc.queryForObject("SELECT count(*) FROM payment WHERE idempotency_key = ?", Long.class,
				key)).isOne();
		assertThat(this.jdbc.queryForObject("SELECT status FROM idempotency_record WHERE idempotency_key = ?",
				String.class, key)).isEqualTo("COMPLETED");
		assertThat(json(first).get("status").asString()).isEqualTo("SUCCEEDED");
	}

	@Test
	void exposesHealthAndMetricsOnly() {
		Http http = new Http(this.port);
		HttpResponse<byte[]> health = http.get("/actuator/health").send();
		assertThat(health.statusCode()).isEqualTo(200);
		assertThat(json(health).get("status").asString()).isEqualTo("UP");
		assertThat(http.get("/actuator/metrics").send().statusCode()).isEqualTo(200);
		assertThat(http.get("/actuator/env").send().statusCode()).isEqualTo(404);
	}

}
