package io.github.idempotency.sample.support;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

/**
 * The base of the payments HTTP tests: the sample on a random port over one PostgreSQL database,
 * shared by every subclass and emptied of payments, charges and records before each test.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class PaymentsHttpTest {

	private static final PostgresTestDatabase database = PostgresTestDatabase.create("payments");

	@DynamicPropertySource
	static void paymentsDatabase(DynamicPropertyRegistry registry) {
		PostgresDatasource.register(registry, database);
	}

	@LocalServerPort
	protected int port;

	@Autowired
	protected JdbcTemplate jdbc;

	protected Http http;

	protected PaymentsDatabase db;

	@BeforeEach
	void emptyThePaymentTables() {
		this.http = new Http(this.port);
		this.db = new PaymentsDatabase(this.jdbc);
		this.db.clear();
	}

}
