package io.github.idempotency.sample.reliability;

import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import io.github.idempotency.sample.support.PaymentsDatabase;
import io.github.idempotency.testsupport.MariaDbTestDatabase;
import io.github.idempotency.testsupport.PostgresTestDatabase;

/**
 * Reads what requests left in a test database through connections of its own, one per query, so
 * that it works whatever happened to the application's pool, and the idempotency records there
 * or, where the sample keeps them in Redis, in Redis.
 */
final class ReliabilityDatabase {

	/**
	 * The key the sample forwards to the gateway for a key of the default tenant.
	 */
	static final String GATEWAY_KEY_PREFIX = "default:create-payment:";

	private final JdbcTemplate jdbc;

	private final PaymentsDatabase payments;

	private final RedisRecords redis;

	private final String now;

	ReliabilityDatabase(PostgresTestDatabase database) {
		this(database, null);
	}

	/**
	 * Read a MariaDB database that keeps the idempotency records too.
	 * @param database the database
	 */
	ReliabilityDatabase(MariaDbTestDatabase database) {
		this(database.url(), database.username(), database.password(), null, "UTC_TIMESTAMP(6)");
	}

	/**
	 * Read a database whose application keeps its idempotency records in Redis.
	 * @param database the database
	 * @param redis the records in Redis, or {@code null} where they are in the database
	 */
	ReliabilityDatabase(PostgresTestDatabase database, RedisRecords redis) {
		this(database.url(), database.username(), database.password(), redis, "clock_timestamp()");
	}

	private ReliabilityDatabase(String url, String username, String password, RedisRecords redis, String now) {
		this.jdbc = new JdbcTemplate(new DriverManagerDataSource(url, username, password));
		this.payments = new PaymentsDatabase(this.jdbc);
		this.redis = redis;
		this.now = now;
	}

	JdbcTemplate jdbc() {
		return this.jdbc;
	}

	PaymentsDatabase payments() {
		return this.payments;
	}

	long count(String sql, Object... args) {
		Long count = this.jdbc.queryForObject(sql, Long.class, args);
		return (count != null) ? count : 0;
	}

	long paymentsOf(String key) {
		return count("SELECT count(*) FROM payment WHERE tenant_id = 'default' AND idempotency_key = ?", key);
	}

	long chargesOf(String key) {
		return count("SELECT count(*) FROM gateway_charge WHERE idempotency_key = ?", GATEWAY_KEY_PREFIX + key);
	}

	/**
	 * Return the payment of a key in the default tenant, or {@code null}.
	 * @param key the key
	 * @return its columns
	 */
	Map<String, Object> paymentOf(String key) {
		return single(this.jdbc.queryForList(
				"SELECT * FROM payment WHERE tenant_id = 'default' AND idempotency_key = ?", key));
	}

	/**
	 * Return the gateway charge of a key in the default tenant, or {@code null}.
	 * @param key the key
	 * @return its columns
	 */
	Map<String, Object> chargeOf(String key) {
		return single(this.jdbc.queryForList("SELECT * FROM gateway_charge WHERE idempotency_key = ?",
				GATEWAY_KEY_PREFIX + key));
	}

	/**
	 * Return the idempotency record of a key in the default tenant, or {@code null}.
	 * @param key the key
	 * @return its columns
	 */
	Map<String, Object> recordOf(String key) {
		return (this.redis != null) ? this.redis.recordOf("default", key) : this.payments.record("default", key);
	}

	long recordsInProgress() {
		return (this.redis != null) ? this.redis.recordsInProgress()
				: count("SELECT count(*) FROM idempotency_record WHERE status = 'IN_PROGRESS'");
	}

	long recordsInProgressPastTheirLease() {
		return count("SELECT count(*) FROM idempotency_record WHERE status = 'IN_PROGRESS' "
				+ "AND locked_until <= " + this.now);
	}

	private static Map<String, Object> single(List<Map<String, Object>> rows) {
		if (rows.size() > 1) {
			throw new AssertionError("Expected at most one row but found " + rows);
		}
		return rows.isEmpty() ? null : rows.get(0);
	}

}
