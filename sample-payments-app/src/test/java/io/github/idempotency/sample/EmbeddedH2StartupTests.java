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

import io.github.idempotency.testsupport.Http;

import static io.github.idempotency.sample.support.Payments.body;
import static io.github.idempotency.sample.support.Payments.customer;
import static io.github.idempotency.sample.support.Payments.newKey;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application starts on its embedded H2 default, with Hibernate validating the schema that
 * the migrations created, and serves idempotent payments there.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class EmbeddedH2StartupTests {

	@LocalServerPort
	int port;

	@Autowired
	DataSource dataSource;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	Environment environment;

	@Test
	void startsOnEmbeddedH2WithValidatedSchema() throws Exception {
		try (Connection connection = this.dataSource.getConnection()) {
			assertThat(connection.getMetaData().getDatabaseProductName()).isEqualTo("H2");
			assertThat(connection.getMetaData().getURL()).startsWith("jdbc:h2:mem:");
		}
		assertThat(this.environment.getProperty("spring.jpa.hibernate.ddl-auto")).isEqualTo("validate");
		assertThat(this.jdbc.queryForList("SELECT \"version\" FROM \"flyway_schema_history\" "
				+ "WHERE \"success\" AND \"type\" = 'SQL' ORDER BY \"installed_rank\"", String.class))
			.containsExactly("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14");
		Http http = new Http(this.port);
		String key = newKey();
		String customer = customer("c-");
		String request = body(customer, 2999, "USD");
		HttpResponse<byte[]> first = http.post("/payments").key(key).json(request).send();
		HttpResponse<byte[]> replay = http.post("/payments").key(key).json(request).send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.jdbc.queryForObject("SELECT count(*) FROM gateway_charge WHERE customer_id = ?", Long.class,
				customer))
			.isOne();
	}

}
