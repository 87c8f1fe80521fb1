package io.github.idempotency.benchmarks.purge;

import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.jdbc.BenchmarkJdbc;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.springframework.jdbc.core.JdbcTemplate;

import io.github.idempotency.testsupport.PostgresTestDatabase;

/**
 * A throw-away PostgreSQL database with the starter's schema, reset and seeded with expired
 * records before each phase.
 */
final class BenchmarkDatabase implements AutoCloseable {

	private final PostgresTestDatabase database;

	private final HikariDataSource dataSource;

	private final JdbcTemplate jdbc;

	BenchmarkDatabase(int connections) {
		this.database = PostgresTestDatabase.create("purgebench");
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(this.database.url());
		config.setUsername(this.database.username());
		config.setPassword(this.database.password());
		config.setMaximumPoolSize(connections);
		config.setMinimumIdle(connections);
		this.dataSource = new HikariDataSource(config);
		BenchmarkJdbc.createSchema(this.dataSource);
		this.jdbc = new JdbcTemplate(this.dataSource);
	}

	HikariDataSource dataSource() {
		return this.dataSource;
	}

	IdempotencyStore store() {
		return BenchmarkJdbc.store(this.jdbc);
	}

	String describe() {
		return this.jdbc.queryForObject("SHOW server_version", String.class) + " at " + this.database.url();
	}

	/**
	 * Empty both tables, then insert completed records that expired a day ago, half of them of the
	 * operation {@code payments}, each with a response of a realistic size.
	 * @param records how many
	 */
	void resetAndSeed(int records) {
		this.jdbc.execute("TRUNCATE idempotency_record, idempotency_record_archive");
		this.jdbc.update("INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, status, "
				+ "request_fingerprint, fencing_token, locked_until, created_at, completed_at, expires_at, "
				+ "response_status, response_headers, response_body) SELECT 'seed', CASE WHEN g % 2 = 0 THEN "
				+ "'payments' ELSE 'orders' END, 'seed-' || g, 'COMPLETED', md5(g::text) || md5(g::text), "
				+ "gen_random_uuid(), NULL, now() - interval '2 days', now() - interval '2 days', "
				+ "now() - interval '1 day' + (g % 1000) * interval '1 second', 201, "
				+ "E'Content-Type: application/json\\nLocation: /payments/' || g || E'\\n', "
				+ "convert_to('{\"id\":' || g || ',\"status\":\"captured\",\"amount\":1250,\"currency\":\"EUR\"}', "
				+ "'UTF8') FROM generate_series(1, ?) g", records);
		this.jdbc.execute("VACUUM ANALYZE idempotency_record");
		this.jdbc.execute("VACUUM ANALYZE idempotency_record_archive");
		this.jdbc.execute("CHECKPOINT");
	}

	long expiredLeft() {
		return this.jdbc.queryForObject("SELECT count(*) FROM idempotency_record WHERE tenant_id = 'seed'", Long.class);
	}

	@Override
	public void close() {
		this.dataSource.close();
	}

}
