package io.github.idempotency.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.IdempotencyRecordAdministration;
import io.github.idempotency.store.RecordCounts;
import io.github.idempotency.store.RecordMetadata;
import io.github.idempotency.store.ReleaseOutcome;
import io.github.idempotency.store.ReferencedKey;
import io.github.idempotency.store.RepeatedFailure;
import io.github.idempotency.KeyHashes;
import io.github.idempotency.store.RecordStatus;

/**
 * {@link IdempotencyRecordAdministration} over the {@code idempotency_record} table.
 */
class JdbcIdempotencyRecordAdministration implements IdempotencyRecordAdministration {

	private static final Logger logger = LoggerFactory.getLogger(JdbcIdempotencyRecordAdministration.class);

	private static final int IN_PROGRESS = 0;

	private static final int COMPLETED = 1;

	private static final int EXPIRED = 2;

	private static final int STUCK = 3;

	private static final int RELEASED = 4;

	private final JdbcClient jdbc;

	private final IdempotencyStatements statements;

	private final JdbcIdempotencyStore store;

	public JdbcIdempotencyRecordAdministration(JdbcClient jdbc, IdempotencyStatements statements) {
		this.jdbc = jdbc;
		this.statements = statements;
		this.store = new JdbcIdempotencyStore(jdbc, statements);
	}

	@Override
	public List<RecordCounts> countByOperation() {
		Map<String, long[]> counts = new TreeMap<>();
		this.jdbc.sql(this.statements.countByOperation()).query((ResultSet rs) -> {
			long[] count = counts.computeIfAbsent(rs.getString("operation"), (operation) -> new long[5]);
			int slot = switch (RecordStatus.valueOf(rs.getString("status"))) {
				case IN_PROGRESS -> IN_PROGRESS;
				case COMPLETED -> COMPLETED;
				case RELEASED -> RELEASED;
			};
			count[slot] += rs.getLong("records");
			count[EXPIRED] += rs.getLong("expired");
			count[STUCK] += rs.getLong("stuck");
		});
		List<RecordCounts> result = new ArrayList<>(counts.size());
		counts.forEach((operation, count) -> result
			.add(new RecordCounts(operation, count[IN_PROGRESS], count[COMPLETED], count[EXPIRED], count[STUCK],
					count[RELEASED])));
		return result;
	}

	@Override
	public Optional<RecordMetadata> describe(IdempotencyKey key) {
		return JdbcIdempotencyStore.keyParams(this.jdbc.sql(this.statements.describe()), key)
			.query((rs, n) -> metadata(rs, this.statements))
			.list()
			.stream()
			.findFirst()
			.map((metadata) -> metadata.withReferences(this.store.references(key)));
	}

	@Override
	public List<ReferencedKey> findByReference(String name, String value, int limit) {
		return this.jdbc.sql(this.statements.findByReference())
			.param("name", name)
			.param("value", value)
			.param("limit", limit)
			.query((rs, n) -> {
				String status = rs.getString("status");
				return new ReferencedKey(rs.getString("tenant_id"), rs.getString("operation"),
						KeyHashes.shortHash(rs.getString("idempotency_key")),
						(status != null) ? RecordStatus.valueOf(status) : null);
			})
			.list();
	}

	@Override
	public ReleaseOutcome release(IdempotencyKey key, boolean force) {
		int released = JdbcIdempotencyStore.keyParams(this.jdbc.sql(this.statements.releaseStuck()), key)
			.param("force", force)
			.update();
		if (released == 1) {
			logger.info("Operator released a key of operation '{}' (key#={}){}", key.operation(),
					KeyHashes.shortHash(key.key()), force ? " with force" : "");
			return ReleaseOutcome.RELEASED;
		}
		return describe(key).map((record) -> switch (record.status()) {
			case COMPLETED -> ReleaseOutcome.COMPLETED;
			case RELEASED -> ReleaseOutcome.ALREADY_RELEASED;
			case IN_PROGRESS -> ReleaseOutcome.LEASE_ACTIVE;
		}).orElse(ReleaseOutcome.NOT_FOUND);
	}

	@Override
	public long countStuck() {
		return this.jdbc.sql(this.statements.countStuck()).query(Long.class).single();
	}

	@Override
	public List<RepeatedFailure> repeatedFailures(@Nullable String operation, int limit) {
		return this.jdbc.sql(this.statements.repeatedFailures())
			.param("operation", operation, Types.VARCHAR)
			.param("limit", limit)
			.query((rs, n) -> new RepeatedFailure(rs.getString("operation"),
					KeyHashes.shortHash(rs.getString("idempotency_key")), RecordStatus.valueOf(rs.getString("status")),
					rs.getInt("attempts"), rs.getString("last_failure"),
					this.statements.instant(rs, "last_failure_at")))
			.list();
	}

	private static RecordMetadata metadata(ResultSet rs, IdempotencyStatements time) throws SQLException {
		int status = rs.getInt("response_status");
		Integer responseStatus = rs.wasNull() ? null : status;
		long bytes = rs.getLong("response_bytes");
		Long responseBytes = rs.wasNull() ? null : bytes;
		return new RecordMetadata(RecordStatus.valueOf(rs.getString("status")), rs.getString("request_fingerprint"),
				time.instant(rs, "created_at"), time.instant(rs, "locked_until"), time.instant(rs, "completed_at"),
				time.instant(rs, "expires_at"), rs.getBoolean("expired"), rs.getBoolean("lease_expired"),
				responseStatus, responseBytes, rs.getInt("attempts"), rs.getString("last_failure"),
				time.instant(rs, "last_failure_at"), Map.of());
	}

}
