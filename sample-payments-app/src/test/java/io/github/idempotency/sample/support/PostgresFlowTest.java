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
 * The base of the flow tests: one application on a random port and one PostgreSQL database,
 * shared by every subclass and emptied before each test.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class PostgresFlowTest {

	private static final PostgresTestDatabase database = PostgresTestDatabase.create("flows");

	@DynamicPropertySource
	static void flowsDatabase(DynamicPropertyRegistry registry) {
		PostgresDatasource.register(registry, database);
	}

	@LocalServerPort
	protected int port;

	@Autowired
	protected JdbcTemplate jdbc;

	protected Http http;

	protected FlowsDatabase db;

	@BeforeEach
	void emptyTheFlowTables() {
		this.http = new Http(this.port);
		this.db = new FlowsDatabase(this.jdbc);
		this.db.clear();
	}

	/**
	 * Return the database, for tests that need a connection of their own.
	 * @return the database
	 */
	protected static PostgresTestDatabase database() {
		return database;
	}

}
