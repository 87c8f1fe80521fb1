package io.github.idempotency.jdbc;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;


/**
 * Writes idempotency records straight into the table, with times relative to the database clock,
 * so that purge tests set up thousands of expired, stuck and live records at once.
 */
public final class TestRecords {

	static final String TENANT = "tenant";

	private final JdbcTemplate jdbc;

	private final String insert;

	public TestRecords(JdbcTemplate jdbc, DatabasePlatform platform) {
		this.jdbc = jdbc;
		String inMillis = switch (platform) {
			case POSTGRESQL -> "now() + (? * INTERVAL '1 millisecond')";
			case MARIADB -> "TIMESTAMPADD(MICROSECOND, ? * 1000, UTC_TIMESTAMP(6))";
			case H2 -> "DATEADD(MILLISECOND, ?, CURRENT_TIMESTAMP)";
		};
		this.insert = "INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, status, "
				+ "request_fingerprint, fencing_token, locked_until, created_at, completed_at, expires_at, "
				+ "response_status, response_headers, response_body) VALUES (?, ?, ?, ?, ?, ?, "
				+ "CASE WHEN ? THEN " + inMillis + " END, " + inMillis + ", CASE WHEN ? THEN " + inMillis + " END, "
				+ inMillis + ", ?, ?, ?)";
	}

	/**
	 * Insert completed records whose keys are {@code prefix + 0 .. count - 1}.
	 * @param operation the operation
	 * @param prefix the key prefix
	 * @param count how many
	 * @param expiresIn when they expire, negative for the past
	 */
	public void completed(String operation, String prefix, int count, Duration expiresIn) {
		insert(operation, prefix, count, null, expiresIn);
	}

	/**
	 * Insert records in progress whose keys are {@code prefix + 0 .. count - 1}.
	 * @param operation the operation
	 * @param prefix the key prefix
	 * @param count how many
	 * @param leaseEndsIn when their lease runs out, negative for the past
	 * @param expiresIn when they expire, negative for the past
	 */
	public void inProgress(String operation, String prefix, int count, Duration leaseEndsIn, Duration expiresIn) {
		insert(operation, prefix, count, leaseEndsIn, expiresIn);
	}

	public long count(String where, Object... arguments) {
		return this.jdbc.queryForObject("SELECT count(*) FROM idempotency_record WHERE " + where, Long.class,
				arguments);
	}

	public long archived(String where, Object... arguments) {
		return this.jdbc.queryForObject("SELECT count(*) FROM idempotency_record_archive WHERE " + where, Long.class,
				arguments);
	}

	/**
	 * Return every column of the records matching a condition, ordered by key, with the body as
	 * text and the token as a UUID.
	 */
	public List<Map<String, Object>> snapshot(String table, String where, Object... arguments) {
		return this.jdbc.queryForList("SELECT tenant_id, operation, idempotency_key, status, request_fingerprint, "
				+ "fencing_token, created_at, completed_at, expires_at, response_status, response_headers, "
				+ "response_body FROM " + table + " WHERE " + where + " ORDER BY idempotency_key", arguments)
			.stream()
			.map((row) -> {
				row.computeIfPresent("response_body",
						(column, body) -> new String((byte[]) body, StandardCharsets.UTF_8));
				// MariaDB keeps tokens as text.
				row.computeIfPresent("fencing_token", (column, token) -> UUID.fromString(token.toString()));
				return row;
			})
			.toList();
	}

	public void deleteAll() {
		this.jdbc.update("DELETE FROM idempotency_record");
		this.jdbc.update("DELETE FROM idempotency_record_archive");
		this.jdbc.update("DELETE FROM idempotency_reference");
		this.jdbc.update("DELETE FROM idempotency_reference_archive");
	}

	public long references(String where, Object... arguments) {
		return this.jdbc.queryForObject("SELECT count(*) FROM idempotency_reference WHERE " + where, Long.class,
				arguments);
	}

	public long archivedReferences(String where, Object... arguments) {
		return this.jdbc.queryForObject("SELECT count(*) FROM idempotency_reference_archive WHERE " + where,
				Long.class, arguments);
	}

	private void insert(String operation, String prefix, int count, Duration leaseEndsIn, Duration expiresIn) {
		List<Object[]> rows = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			String key = prefix + i;
			boolean completed = leaseEndsIn == null;
			long lease = completed ? 0 : leaseEndsIn.toMillis();
			long created = Math.min(0, Math.min(lease, expiresIn.toMillis())) - Duration.ofMinutes(1).toMillis();
			rows.add(new Object[] { TENANT, operation, key, completed ? "COMPLETED" : "IN_PROGRESS",
					"fingerprint-" + key, UUID.randomUUID(), !completed, lease, created, completed, created + 1,
					expiresIn.toMillis(), completed ? 201 : null,
					completed ? "Content-Type: application/json\nLocation: /things/" + key + "\n" : null,
					completed ? ("{\"key\":\"" + key + "\"}").getBytes(StandardCharsets.UTF_8) : null });
		}
		this.jdbc.batchUpdate(this.insert, rows);
	}

}
