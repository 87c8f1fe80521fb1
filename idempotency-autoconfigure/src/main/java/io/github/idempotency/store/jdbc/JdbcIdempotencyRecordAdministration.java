package io.github.idempotency.store.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcOperations;

import io.github.idempotency.core.IdempotencyKey;
import io.github.idempotency.core.KeyHashes;
import io.github.idempotency.store.IdempotencyRecordAdministration;
import io.github.idempotency.store.RecordCounts;
import io.github.idempotency.store.RecordMetadata;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.store.ReleaseOutcome;

/**
 * {@link IdempotencyRecordAdministration} over the {@code idempotency_record} table.
 */
public class JdbcIdempotencyRecordAdministration implements IdempotencyRecordAdministration {

	private static final Logger logger = LoggerFactory.getLogger(JdbcIdempotencyRecordAdministration.class);

	private static final int IN_PROGRESS = 0;

	private static final int COMPLETED = 1;

	private static final int EXPIRED = 2;

	private static final int STUCK = 3;

	private final JdbcOperations jdbc;

	private final IdempotencySql sql;

	public JdbcIdempotencyRecordAdministration(JdbcOperations jdbc, IdempotencySql sql) {
		this.jdbc = jdbc;
		this.sql = sql;
	}

	@Override
	public List<RecordCounts> countByOperation() {
		Map<String, long[]> counts = new TreeMap<>();
		this.jdbc.query(this.sql.countByOperation(), (ResultSet rs) -> {
			long[] count = counts.computeIfAbsent(rs.getString("operation"), (operation) -> new long[4]);
			boolean inProgress = RecordStatus.valueOf(rs.getString("status")) == RecordStatus.IN_PROGRESS;
			count[inProgress ? IN_PROGRESS : COMPLETED] += rs.getLong("records");
			count[EXPIRED] += rs.getLong("expired");
			count[STUCK] += rs.getLong("stuck");
		});
		List<RecordCounts> result = new ArrayList<>(counts.size());
		counts.forEach((operation, count) -> result
			.add(new RecordCounts(operation, count[IN_PROGRESS], count[COMPLETED], count[EXPIRED], count[STUCK])));
		return result;
	}

	@Override
	public Optional<RecordMetadata> describe(IdempotencyKey key) {
		List<RecordMetadata> rows = this.jdbc.query(this.sql.describe(), (ps) -> {
			ps.setString(1, key.tenant());
			ps.setString(2, key.operation());
			ps.setString(3, key.key());
		}, (rs, n) -> metadata(rs));
		return rows.stream().findFirst();
	}

	@Override
	public ReleaseOutcome release(IdempotencyKey key, boolean force) {
		int released = this.jdbc.update(this.sql.releaseStuck(), (ps) -> {
			ps.setString(1, key.tenant());
			ps.setString(2, key.operation());
			ps.setString(3, key.key());
			ps.setBoolean(4, force);
		});
		if (released == 1) {
			logger.info("Operator released a key of operation '{}' (key#={}){}", key.operation(),
					KeyHashes.shortHash(key.key()), force ? " with force" : "");
			return ReleaseOutcome.RELEASED;
		}
		return describe(key)
			.map((record) -> (record.status() == RecordStatus.COMPLETED) ? ReleaseOutcome.COMPLETED
					: ReleaseOutcome.LEASE_ACTIVE)
			.orElse(ReleaseOutcome.NOT_FOUND);
	}

	@Override
	public long countStuck() {
		Long stuck = this.jdbc.queryForObject(this.sql.countStuck(), Long.class);
		return (stuck != null) ? stuck : 0;
	}

	private static RecordMetadata metadata(ResultSet rs) throws SQLException {
		int status = rs.getInt("response_status");
		Integer responseStatus = rs.wasNull() ? null : status;
		long bytes = rs.getLong("response_bytes");
		Long responseBytes = rs.wasNull() ? null : bytes;
		return new RecordMetadata(RecordStatus.valueOf(rs.getString("status")), rs.getString("request_fingerprint"),
				instant(rs, "created_at"), instant(rs, "locked_until"), instant(rs, "completed_at"),
				instant(rs, "expires_at"), rs.getBoolean("expired"), rs.getBoolean("lease_expired"), responseStatus,
				responseBytes);
	}

	private static Instant instant(ResultSet rs, String column) throws SQLException {
		OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
		return (value != null) ? value.toInstant() : null;
	}

}
