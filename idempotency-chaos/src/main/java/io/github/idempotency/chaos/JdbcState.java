package io.github.idempotency.chaos;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Reads the sample's payments and gateway charges, and the JDBC store's idempotency records, from
 * PostgreSQL or MariaDB; the charges of an external gateway from its log.
 */
final class JdbcState implements IdempotencyRecords {

	private static final String PAYMENTS = """
			SELECT idempotency_key, id, status, gateway_charge_id FROM payment
			""";

	private static final String CHARGES = """
			SELECT idempotency_key, id, status, attempts FROM gateway_charge
			""";

	private static final String POSTGRES_RECORDS = """
			SELECT idempotency_key, status, locked_until::text AS locked_until,
			       coalesce(locked_until <= now(), true) AS lease_over, response_status,
			       encode(sha256(response_body), 'hex') AS body_hash
			FROM idempotency_record WHERE operation IN ('create-payment', 'create-payment-async', 'create-payment-accepted')
			""";

	private static final String MARIADB_RECORDS = """
			SELECT idempotency_key, status, CAST(locked_until AS CHAR) AS locked_until,
			       coalesce(locked_until <= UTC_TIMESTAMP(6), true) AS lease_over, response_status,
			       SHA2(response_body, 256) AS body_hash
			FROM idempotency_record WHERE operation IN ('create-payment', 'create-payment-async', 'create-payment-accepted')
			""";

	private final String url;

	private final boolean mariadb;

	/**
	 * Read a database.
	 * @param url its JDBC URL, {@code jdbc:postgresql:} (as user postgres) or
	 * {@code jdbc:mariadb:} (as root), without a password
	 */
	JdbcState(String url) {
		this.url = url;
		this.mariadb = url.startsWith("jdbc:mariadb:");
	}

	/**
	 * Read the payments, the charges and the idempotency records.
	 * @param records where the idempotency records are read from
	 * @param gateway the external gateway's log, or {@code null} if the sample charged in its own
	 * process (the charges are then the rows of {@code gateway_charge})
	 * @return the state
	 */
	DatabaseState load(IdempotencyRecords records, @Nullable GatewayLog gateway) {
		List<DatabaseState.Payment> payments = new ArrayList<>();
		List<DatabaseState.Charge> charges = new ArrayList<>();
		try (Connection connection = connect(); Statement statement = connection.createStatement()) {
			try (ResultSet rows = statement.executeQuery(PAYMENTS)) {
				while (rows.next()) {
					payments.add(new DatabaseState.Payment(rows.getString(1), rows.getLong(2), rows.getString(3),
							rows.getString(4)));
				}
			}
			try (ResultSet rows = statement.executeQuery(CHARGES)) {
				while (rows.next()) {
					String scoped = rows.getString(1);
					charges.add(new DatabaseState.Charge(scoped.substring(scoped.lastIndexOf(':') + 1), rows.getString(2),
							rows.getString(3), rows.getInt(4)));
				}
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not read the payments", ex);
		}
		if (gateway != null) {
			if (!charges.isEmpty()) {
				throw new IllegalStateException("The sample charged in its own process although it had an external gateway");
			}
			return new DatabaseState(payments, gateway.checkedCharges(), records.load(), gateway.calls());
		}
		return new DatabaseState(payments, charges, records.load());
	}

	@Override
	public List<DatabaseState.IdempotencyRecord> load() {
		List<DatabaseState.IdempotencyRecord> records = new ArrayList<>();
		try (Connection connection = connect(); Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery(this.mariadb ? MARIADB_RECORDS : POSTGRES_RECORDS)) {
			while (rows.next()) {
				int status = rows.getInt("response_status");
				Integer responseStatus = rows.wasNull() ? null : status;
				records.add(new DatabaseState.IdempotencyRecord(rows.getString("idempotency_key"),
						rows.getString("status"), rows.getString("locked_until"), rows.getBoolean("lease_over"),
						responseStatus, rows.getString("body_hash")));
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not read the idempotency records", ex);
		}
		return records;
	}

	private Connection connect() throws SQLException {
		return DriverManager.getConnection(this.url, this.mariadb ? "root" : "postgres", "");
	}

}
