package io.github.idempotency.sample.support;

import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Reads the effects of requests back from the database: payments, gateway charges and
 * idempotency records.
 */
public final class PaymentsDatabase {

	private final JdbcTemplate jdbc;

	private final boolean mariadb;

	public PaymentsDatabase(JdbcTemplate jdbc) {
		this.jdbc = jdbc;
		this.mariadb = "MariaDB".equals(jdbc.execute(
				(ConnectionCallback<String>) (connection) -> connection.getMetaData().getDatabaseProductName()));
	}

	/**
	 * Delete every payment, charge and idempotency record (PostgreSQL or MariaDB).
	 */
	public void clear() {
		this.jdbc.execute("TRUNCATE TABLE payment");
		this.jdbc.execute("TRUNCATE TABLE gateway_charge");
		if (hasTable("idempotency_record")) {
			this.jdbc.execute("TRUNCATE TABLE idempotency_record");
		}
	}

	/**
	 * Return whether a table exists.
	 * @param name the table name
	 * @return whether it exists
	 */
	public boolean hasTable(String name) {
		String sql = this.mariadb
				? "SELECT count(*) > 0 FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?"
				: "SELECT to_regclass(?) IS NOT NULL";
		return Boolean.TRUE.equals(this.jdbc.queryForObject(sql, Boolean.class, name));
	}

	public long payments() {
		return count("SELECT count(*) FROM payment");
	}

	public long payments(String tenant) {
		return count("SELECT count(*) FROM payment WHERE tenant_id = ?", tenant);
	}

	public long charges() {
		return count("SELECT count(*) FROM gateway_charge");
	}

	public long succeededCharges() {
		return count("SELECT count(*) FROM gateway_charge WHERE status = 'SUCCEEDED'");
	}

	public long records() {
		return count("SELECT count(*) FROM idempotency_record");
	}

	/**
	 * Return the only gateway charge.
	 * @return its columns
	 */
	public Map<String, Object> onlyCharge() {
		List<Map<String, Object>> charges = this.jdbc.queryForList("SELECT * FROM gateway_charge");
		if (charges.size() != 1) {
			throw new AssertionError("Expected exactly one gateway charge but found " + charges);
		}
		return charges.get(0);
	}

	/**
	 * Return the only payment.
	 * @return its columns
	 */
	public Map<String, Object> onlyPayment() {
		List<Map<String, Object>> payments = this.jdbc.queryForList("SELECT * FROM payment");
		if (payments.size() != 1) {
			throw new AssertionError("Expected exactly one payment but found " + payments);
		}
		return payments.get(0);
	}

	/**
	 * Return the idempotency record of a key, or {@code null}.
	 * @param tenant the tenant
	 * @param key the key
	 * @return its columns
	 */
	public Map<String, Object> record(String tenant, String key) {
		List<Map<String, Object>> records = this.jdbc.queryForList(
				"SELECT * FROM idempotency_record WHERE tenant_id = ? AND idempotency_key = ?", tenant, key);
		return records.isEmpty() ? null : records.get(0);
	}

	/**
	 * Return the status of the idempotency record of a key in the default tenant, or {@code null}.
	 * @param key the key
	 * @return {@code IN_PROGRESS}, {@code COMPLETED} or {@code null}
	 */
	public String recordStatus(String key) {
		Map<String, Object> record = record("default", key);
		return (record != null) ? (String) record.get("status") : null;
	}

	/**
	 * Make the lease of a key in the default tenant run out now, as if its request had stalled.
	 * @param key the key
	 */
	public void expireLease(String key) {
		String past = this.mariadb ? "UTC_TIMESTAMP(6) - INTERVAL 1 SECOND" : "now() - interval '1 second'";
		int updated = this.jdbc.update("UPDATE idempotency_record SET locked_until = " + past
				+ " WHERE tenant_id = 'default' AND idempotency_key = ? AND status = 'IN_PROGRESS'", key);
		if (updated != 1) {
			throw new AssertionError("No IN_PROGRESS record to expire for the key");
		}
	}

	private long count(String sql, Object... args) {
		Long count = this.jdbc.queryForObject(sql, Long.class, args);
		return (count != null) ? count : 0;
	}

}
