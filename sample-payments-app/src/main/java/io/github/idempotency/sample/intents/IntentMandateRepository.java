package io.github.idempotency.sample.intents;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Stores intent mandates in {@code intent_mandate}, with their merchants and skus in
 * {@code intent_mandate_merchant} and {@code intent_mandate_sku}.
 */
@Repository
class IntentMandateRepository {

	private static final String COLUMNS = "id, user_id, intent_hash, description, max_amount, currency, "
			+ "requires_refundability, user_cart_confirmation_required, created_at, expires_at";

	private final JdbcClient jdbc;

	IntentMandateRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	void insert(IntentMandate mandate) {
		this.jdbc.sql("INSERT INTO intent_mandate (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
			.params(mandate.id(), mandate.userId(), mandate.intentHash(), mandate.description(), mandate.maxAmount(),
					mandate.currency(), mandate.requiresRefundability(), mandate.userCartConfirmationRequired(),
					utc(mandate.createdAt()), utc(mandate.expiresAt()))
			.update();
		for (String merchant : mandate.merchants()) {
			this.jdbc.sql("INSERT INTO intent_mandate_merchant (mandate_id, merchant) VALUES (?, ?)")
				.params(mandate.id(), merchant)
				.update();
		}
		for (String sku : mandate.skus()) {
			this.jdbc.sql("INSERT INTO intent_mandate_sku (mandate_id, sku) VALUES (?, ?)")
				.params(mandate.id(), sku)
				.update();
		}
	}

	Optional<IntentMandate> findById(String id) {
		return find("id = ?", id);
	}

	Optional<IntentMandate> findByUserAndHash(String userId, String intentHash) {
		return find("user_id = ? AND intent_hash = ?", userId, intentHash);
	}

	private Optional<IntentMandate> find(String where, Object... params) {
		return this.jdbc.sql("SELECT " + COLUMNS + " FROM intent_mandate WHERE " + where)
			.params(params)
			.query(this::mandate)
			.optional();
	}

	private IntentMandate mandate(ResultSet rs, int row) throws SQLException {
		String id = rs.getString("id");
		return new IntentMandate(id, rs.getString("user_id"), rs.getString("description"),
				values("SELECT merchant FROM intent_mandate_merchant WHERE mandate_id = ?", id),
				values("SELECT sku FROM intent_mandate_sku WHERE mandate_id = ?", id),
				rs.getLong("max_amount"), rs.getString("currency"), rs.getBoolean("requires_refundability"),
				rs.getBoolean("user_cart_confirmation_required"), rs.getString("intent_hash"),
				rs.getObject("created_at", OffsetDateTime.class).toInstant(),
				rs.getObject("expires_at", OffsetDateTime.class).toInstant());
	}

	/**
	 * Return the values of a list, sorted as the mandate holds them: in Java's order, not the
	 * database collation's.
	 */
	private List<String> values(String sql, String mandateId) {
		return IntentHasher.sorted(this.jdbc.sql(sql).param(mandateId).query(String.class).list());
	}

	private static OffsetDateTime utc(Instant instant) {
		return instant.atOffset(ZoneOffset.UTC);
	}

}
