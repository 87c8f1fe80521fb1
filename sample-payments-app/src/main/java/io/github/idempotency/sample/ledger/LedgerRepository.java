package io.github.idempotency.sample.ledger;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Repository;

/**
 * Stores ledger entries in {@code ledger_entry}.
 */
@Repository
class LedgerRepository {

	private static final String COLUMNS = "id, payment_id, customer_id, amount, currency, gateway_charge_id, posted_at";

	private final JdbcClient jdbc;

	LedgerRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	LedgerEntry insert(LedgerEntry entry) {
		KeyHolder keys = new GeneratedKeyHolder();
		this.jdbc
			.sql("INSERT INTO ledger_entry (payment_id, customer_id, amount, currency, gateway_charge_id, posted_at) "
					+ "VALUES (?, ?, ?, ?, ?, ?)")
			.params(entry.paymentId(), entry.customerId(), entry.amount(), entry.currency(), entry.gatewayChargeId(),
					entry.postedAt().atOffset(ZoneOffset.UTC))
			.update(keys, "id");
		return new LedgerEntry(keys.getKeyAs(Long.class), entry.paymentId(), entry.customerId(), entry.amount(),
				entry.currency(), entry.gatewayChargeId(), entry.postedAt());
	}

	List<LedgerEntry> findAll() {
		return this.jdbc.sql("SELECT " + COLUMNS + " FROM ledger_entry ORDER BY id")
			.query(LedgerRepository::entry)
			.list();
	}

	List<LedgerEntry> findByCustomerId(String customerId) {
		return this.jdbc.sql("SELECT " + COLUMNS + " FROM ledger_entry WHERE customer_id = ? ORDER BY id")
			.param(customerId)
			.query(LedgerRepository::entry)
			.list();
	}

	private static LedgerEntry entry(ResultSet rs, int row) throws SQLException {
		return new LedgerEntry(rs.getLong("id"), rs.getLong("payment_id"), rs.getString("customer_id"),
				rs.getLong("amount"), rs.getString("currency"), rs.getString("gateway_charge_id"),
				rs.getObject("posted_at", OffsetDateTime.class).toInstant());
	}

}
