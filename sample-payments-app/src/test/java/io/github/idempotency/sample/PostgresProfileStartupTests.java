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

import io.github.idempotency.sample.support.PostgresDatasource;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static io.github.idempotency.sample.support.Payments.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application starts with its {@code postgres} profile on PostgreSQL, with Hibernate
 * validating the schema that its own and the starter's migrations created, and exposes only the
 * health and metrics endpoints.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("postgres")
class PostgresProfileStartupTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("startup");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		PostgresDatasource.register(registry, database);
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
	void startsOnPostgresqlWithValidatedSchema() throws Exception {
		try (Connection connection = this.dataSource.getConnection()) {
			assertThat(connection.getMetaData().getDatabaseProductName()).isEqualTo("PostgreSQL");
			assertThat(connection.getCatalog()).isEqualTo(database.name());
		}
		assertThat(this.environment.getProperty("spring.jpa.hibernate.ddl-auto")).isEqualTo("validate");
		assertThat(this.jdbc.queryForList("SELECT version FROM flyway_schema_history "
				+ "WHERE success AND type = 'SQL' ORDER BY installed_rank", String.class))
			.containsExactly("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14");
		assertThat(this.jdbc.queryForObject(
				"SELECT count(*) FROM idempotency_schema_history WHERE success AND version = '1'", Long.class))
			.isOne();
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
