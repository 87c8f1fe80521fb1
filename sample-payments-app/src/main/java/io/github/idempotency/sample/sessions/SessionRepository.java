package io.github.idempotency.sample.sessions;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Stores sessions in {@code user_session}; whether a session is active is decided by the database
 * clock, the same clock that sets its expiry.
 */
@Repository
class SessionRepository {

	private static final String ACTIVE = "ended_at IS NULL AND expires_at > CURRENT_TIMESTAMP";

	private static final String COLUMNS = "id, user_id, device_id, session_number, token, created_at, expires_at";

	private final JdbcClient jdbc;

	SessionRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Return the database's current time.
	 * @return now, by the database clock
	 */
	Instant now() {
		return this.jdbc.sql("SELECT CURRENT_TIMESTAMP").query(OffsetDateTime.class).single().toInstant();
	}

	/**
	 * Return the number of a device's latest session and whether it is active.
	 * @param userId the user
	 * @param deviceId the device
	 * @return the latest session, or empty if the device never had one
	 */
	Optional<Latest> latest(String userId, String deviceId) {
		return this.jdbc
			.sql("SELECT session_number, CASE WHEN " + ACTIVE + " THEN 1 ELSE 0 END AS active FROM user_session "
					+ "WHERE user_id = ? AND device_id = ? ORDER BY session_number DESC LIMIT 1")
			.params(userId, deviceId)
			.query((rs, row) -> new Latest(rs.getInt("session_number"), rs.getInt("active") == 1))
			.optional();
	}

	/**
	 * Return the active session of a device.
	 * @param userId the user
	 * @param deviceId the device
	 * @return the session, or empty if the device has no active session
	 */
	Optional<IssuedSession> findActive(String userId, String deviceId) {
		return this.jdbc
			.sql("SELECT " + COLUMNS + " FROM user_session WHERE user_id = ? AND device_id = ? AND " + ACTIVE)
			.params(userId, deviceId)
			.query(SessionRepository::issued)
			.optional();
	}

	/**
	 * Insert a session.
	 * @param session the session
	 * @throws org.springframework.dao.DuplicateKeyException if the device already has a session
	 * with its number
	 */
	void insert(IssuedSession session) {
		this.jdbc
			.sql("INSERT INTO user_session (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?)")
			.params(session.id(), session.userId(), session.deviceId(), session.number(), session.token(),
					utc(session.createdAt()), utc(session.expiresAt()))
			.update();
	}

	Optional<SessionStatus> findById(String id) {
		return this.jdbc
			.sql("SELECT id, user_id, device_id, session_number, created_at, expires_at, ended_at, "
					+ "CASE WHEN ended_at IS NOT NULL THEN 'ENDED' WHEN expires_at <= CURRENT_TIMESTAMP THEN 'EXPIRED' "
					+ "ELSE 'ACTIVE' END AS status FROM user_session WHERE id = ?")
			.param(id)
			.query((rs, row) -> new SessionStatus(rs.getString("id"), rs.getString("user_id"),
					rs.getString("device_id"), rs.getInt("session_number"), rs.getString("status"),
					instant(rs, "created_at"), instant(rs, "expires_at"), instant(rs, "ended_at")))
			.optional();
	}

	/**
	 * Lock a session's row until the current transaction ends, and return whether the session is
	 * active; ending the session waits for the lock.
	 * @param id the session id
	 * @return whether the session is active, or empty if there is no such session
	 */
	Optional<Boolean> lockActive(String id) {
		return this.jdbc
			.sql("SELECT CASE WHEN " + ACTIVE + " THEN 1 ELSE 0 END AS active FROM user_session WHERE id = ? "
					+ "FOR UPDATE")
			.param(id)
			.query((rs, row) -> rs.getInt("active") == 1)
			.optional();
	}

	/**
	 * End a session that has not been ended yet.
	 * @param id the session id
	 * @return whether this call ended it
	 */
	boolean end(String id) {
		return this.jdbc.sql("UPDATE user_session SET ended_at = CURRENT_TIMESTAMP WHERE id = ? AND ended_at IS NULL")
			.param(id)
			.update() == 1;
	}

	private static IssuedSession issued(ResultSet rs, int row) throws SQLException {
		return new IssuedSession(rs.getString("id"), rs.getString("user_id"), rs.getString("device_id"),
				rs.getInt("session_number"), rs.getString("token"), instant(rs, "created_at"),
				instant(rs, "expires_at"));
	}

	private static Instant instant(ResultSet rs, String column) throws SQLException {
		OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
		return (value != null) ? value.toInstant() : null;
	}

	private static OffsetDateTime utc(Instant instant) {
		return instant.atOffset(ZoneOffset.UTC);
	}

	/**
	 * The latest session of a device.
	 *
	 * @param number its number
	 * @param active whether it is active now
	 */
	record Latest(int number, boolean active) {

		/**
		 * Return the number of the session a login on the device is about now: the active
		 * session's, or the next one's.
		 * @return the number
		 */
		int current() {
			return this.active ? this.number : this.number + 1;
		}

	}

}
