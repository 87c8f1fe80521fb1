package io.github.idempotency.store.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcOperations;

import io.github.idempotency.core.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.store.StoredHeaders;
import io.github.idempotency.store.StoredResponse;

/**
 * {@link IdempotencyStore} over the {@code idempotency_record} table through plain JDBC, so that
 * the request path costs one statement per step and no ORM work.
 */
public class JdbcIdempotencyStore implements IdempotencyStore {

	private static final int MAX_CLAIM_ATTEMPTS = 16;

	private final JdbcOperations jdbc;

	private final IdempotencySql sql;

	public JdbcIdempotencyStore(JdbcOperations jdbc, IdempotencySql sql) {
		this.jdbc = jdbc;
		this.sql = sql;
	}

	@Override
	public ClaimResult claim(ClaimRequest request) {
		for (int attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
			UUID token = UUID.randomUUID();
			Row row = insertOrSelect(request, token);
			if (row == null) {
				continue;
			}
			if (row.claimed()) {
				return new ClaimResult.Claimed(token, false);
			}
			IdempotencyRecord existing = row.record();
			boolean leaseRanOut = existing.status() == RecordStatus.IN_PROGRESS && row.leaseExpired()
					&& existing.fingerprint().equals(request.fingerprint());
			if (!row.expired() && !leaseRanOut) {
				return new ClaimResult.Existing(existing, Duration.ofMillis(row.leaseRemainingMillis()));
			}
			if (takeOver(request, existing, row.expired(), token)) {
				return new ClaimResult.Claimed(token, !row.expired());
			}
		}
		throw new IllegalStateException("Could not claim " + request.key() + " after " + MAX_CLAIM_ATTEMPTS
				+ " attempts; the key is changing hands continuously");
	}

	/**
	 * Read the record that holds the key, or insert the claim when there is none. Returns
	 * {@code null} when a concurrent claim committed after this statement's snapshot, so that the
	 * caller retries.
	 */
	private Row insertOrSelect(ClaimRequest request, UUID token) {
		IdempotencyKey key = request.key();
		if (this.sql.claimReturnsExisting()) {
			List<Row> rows = this.jdbc.query(this.sql.claim(),
					(ps) -> bindClaim(ps, bindKey(ps, 1, key), request, token), (rs, n) -> Row.of(rs, key));
			return rows.isEmpty() ? null : rows.get(0);
		}
		try {
			this.jdbc.update(this.sql.claim(), (ps) -> bindClaim(ps, 1, request, token));
			return Row.CLAIMED;
		}
		catch (DuplicateKeyException ex) {
			return select(key);
		}
	}

	/**
	 * Take the key over from a record that expired or whose lease ran out; an expired record of an
	 * archived operation is archived in the same statement where the database allows, otherwise
	 * right after from what was read, which the fencing token guarantees is what was replaced.
	 */
	private boolean takeOver(ClaimRequest request, IdempotencyRecord existing, boolean expired, UUID newToken) {
		if (!request.archive() || !expired) {
			return takeOver(request, existing.token(), newToken);
		}
		if (this.sql.takesOverArchivingInOneStatement()) {
			Long taken = this.jdbc.query(this.sql.takeOverArchiving(), (ps) -> {
				int i = bindKey(ps, 1, request.key());
				ps.setObject(i++, existing.token());
				ps.setString(i++, request.fingerprint());
				ps.setObject(i++, newToken);
				ps.setLong(i++, request.lease().toMillis());
				ps.setLong(i, request.ttl().toMillis());
			}, (rs) -> rs.next() ? rs.getLong(1) : 0L);
			return taken != null && taken == 1;
		}
		if (!takeOver(request, existing.token(), newToken)) {
			return false;
		}
		this.jdbc.update(this.sql.archiveRecord(), (ps) -> bindArchive(ps, existing));
		return true;
	}

	private boolean takeOver(ClaimRequest request, UUID oldToken, UUID newToken) {
		return this.jdbc.update(this.sql.takeOver(), (ps) -> {
			ps.setString(1, request.fingerprint());
			ps.setObject(2, newToken);
			ps.setLong(3, request.lease().toMillis());
			ps.setLong(4, request.ttl().toMillis());
			int i = bindKey(ps, 5, request.key());
			ps.setObject(i, oldToken);
		}) == 1;
	}

	@Override
	public boolean complete(IdempotencyKey key, UUID token, StoredResponse response, Duration ttl) {
		return this.jdbc.update(this.sql.complete(), (ps) -> {
			ps.setInt(1, response.status());
			ps.setString(2, StoredHeaders.encode(response.headers()));
			ps.setBytes(3, response.body());
			ps.setLong(4, ttl.toMillis());
			int i = bindKey(ps, 5, key);
			ps.setObject(i, token);
		}) == 1;
	}

	@Override
	public boolean release(IdempotencyKey key, UUID token) {
		return this.jdbc.update(this.sql.release(), (ps) -> {
			int i = bindKey(ps, 1, key);
			ps.setObject(i, token);
		}) == 1;
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * A renewal that the database cannot finish within a third of the lease (at least a second),
	 * such as one waiting on a row lock, is cancelled: the next renewal tries again.
	 */
	@Override
	public boolean extendLease(IdempotencyKey key, UUID token, Duration lease) {
		int timeoutSeconds = (int) Math.max(1, lease.toSeconds() / 3);
		return this.jdbc.update((connection) -> {
			PreparedStatement ps = connection.prepareStatement(this.sql.extendLease());
			ps.setQueryTimeout(timeoutSeconds);
			ps.setLong(1, lease.toMillis());
			int i = bindKey(ps, 2, key);
			ps.setObject(i, token);
			return ps;
		}) == 1;
	}

	@Override
	public Optional<IdempotencyRecord> find(IdempotencyKey key) {
		return Optional.ofNullable(select(key)).map(Row::record);
	}

	private Row select(IdempotencyKey key) {
		List<Row> rows = this.jdbc.query(this.sql.select(), (ps) -> bindKey(ps, 1, key), (rs, n) -> Row.of(rs, key));
		return rows.isEmpty() ? null : rows.get(0);
	}

	private static int bindClaim(PreparedStatement ps, int index, ClaimRequest request, UUID token)
			throws SQLException {
		int i = bindKey(ps, index, request.key());
		ps.setString(i++, request.fingerprint());
		ps.setObject(i++, token);
		ps.setLong(i++, request.lease().toMillis());
		ps.setLong(i++, request.ttl().toMillis());
		return i;
	}

	private static void bindArchive(PreparedStatement ps, IdempotencyRecord record) throws SQLException {
		int i = bindKey(ps, 1, record.key());
		ps.setString(i++, record.status().name());
		ps.setString(i++, record.fingerprint());
		ps.setObject(i++, record.token());
		setInstant(ps, i++, record.createdAt());
		setInstant(ps, i++, record.completedAt());
		setInstant(ps, i++, record.expiresAt());
		StoredResponse response = record.response();
		ps.setObject(i++, (response != null) ? response.status() : null, Types.INTEGER);
		ps.setString(i++, (response != null) ? StoredHeaders.encode(response.headers()) : null);
		ps.setBytes(i, (response != null) ? response.body() : null);
	}

	private static void setInstant(PreparedStatement ps, int index, Instant instant) throws SQLException {
		if (instant != null) {
			ps.setObject(index, OffsetDateTime.ofInstant(instant, ZoneOffset.UTC));
		}
		else {
			ps.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
		}
	}

	private static int bindKey(PreparedStatement ps, int index, IdempotencyKey key) throws SQLException {
		ps.setString(index, key.tenant());
		ps.setString(index + 1, key.operation());
		ps.setString(index + 2, key.key());
		return index + 3;
	}

	/**
	 * One row of the claim or select statements.
	 */
	private record Row(boolean claimed, IdempotencyRecord record, boolean expired, boolean leaseExpired,
			long leaseRemainingMillis) {

		static final Row CLAIMED = new Row(true, null, false, false, 0);

		static Row of(ResultSet rs, IdempotencyKey key) throws SQLException {
			if (rs.getBoolean("claimed")) {
				return CLAIMED;
			}
			RecordStatus status = RecordStatus.valueOf(rs.getString("status"));
			StoredResponse response = null;
			if (status == RecordStatus.COMPLETED) {
				byte[] body = rs.getBytes("response_body");
				response = new StoredResponse(rs.getInt("response_status"),
						StoredHeaders.decode(rs.getString("response_headers")), (body != null) ? body : new byte[0]);
			}
			IdempotencyRecord record = new IdempotencyRecord(key, status, rs.getString("request_fingerprint"),
					rs.getObject("fencing_token", UUID.class), instant(rs, "locked_until"), instant(rs, "created_at"),
					instant(rs, "completed_at"), instant(rs, "expires_at"), response);
			return new Row(false, record, rs.getBoolean("expired"), rs.getBoolean("lease_expired"),
					rs.getLong("lease_remaining_ms"));
		}

		private static Instant instant(ResultSet rs, String column) throws SQLException {
			OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
			return (value != null) ? value.toInstant() : null;
		}

	}

}
