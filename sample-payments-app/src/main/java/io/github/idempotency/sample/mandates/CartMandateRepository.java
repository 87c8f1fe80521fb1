package io.github.idempotency.sample.mandates;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Stores cart mandates and their items in {@code cart_mandate} and {@code cart_mandate_item}.
 */
@Repository
class CartMandateRepository {

	private final JdbcClient jdbc;

	CartMandateRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	void insert(CartMandate mandate) {
		this.jdbc
			.sql("INSERT INTO cart_mandate (id, customer_id, currency, total, cart_hash, created_at, expires_at) "
					+ "VALUES (?, ?, ?, ?, ?, ?, ?)")
			.params(mandate.id(), mandate.customerId(), mandate.currency(), mandate.total(), mandate.cartHash(),
					utc(mandate.createdAt()), utc(mandate.expiresAt()))
			.update();
		for (CartItem item : mandate.items()) {
			this.jdbc
				.sql("INSERT INTO cart_mandate_item (mandate_id, sku, quantity, unit_price) VALUES (?, ?, ?, ?)")
				.params(mandate.id(), item.sku(), item.quantity(), item.unitPrice())
				.update();
		}
	}

	Optional<CartMandate> findById(String id) {
		List<CartItem> items = this.jdbc
			.sql("SELECT sku, quantity, unit_price FROM cart_mandate_item WHERE mandate_id = ? ORDER BY sku")
			.param(id)
			.query((rs, row) -> new CartItem(rs.getString("sku"), rs.getInt("quantity"), rs.getLong("unit_price")))
			.list();
		return this.jdbc
			.sql("SELECT id, customer_id, currency, total, cart_hash, created_at, expires_at FROM cart_mandate "
					+ "WHERE id = ?")
			.param(id)
			.query((rs, row) -> new CartMandate(rs.getString("id"), rs.getString("customer_id"),
					rs.getString("currency"), items, rs.getLong("total"), rs.getString("cart_hash"),
					rs.getObject("created_at", OffsetDateTime.class).toInstant(),
					rs.getObject("expires_at", OffsetDateTime.class).toInstant()))
			.optional();
	}

	private static OffsetDateTime utc(Instant instant) {
		return instant.atOffset(ZoneOffset.UTC);
	}

}
