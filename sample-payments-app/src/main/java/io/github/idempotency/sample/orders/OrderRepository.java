package io.github.idempotency.sample.orders;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Repository;

import io.github.idempotency.sample.mandates.CartMandate;

/**
 * Stores orders in {@code orders}, which is unique on the cart mandate as a last line of defence.
 */
@Repository
class OrderRepository {

	private static final String COLUMNS = "id, cart_mandate_id, customer_id, currency, total, created_at";

	private final JdbcClient jdbc;

	OrderRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	Order insert(CartMandate mandate, Instant createdAt) {
		KeyHolder keys = new GeneratedKeyHolder();
		this.jdbc
			.sql("INSERT INTO orders (cart_mandate_id, customer_id, currency, total, created_at) "
					+ "VALUES (?, ?, ?, ?, ?)")
			.params(mandate.id(), mandate.customerId(), mandate.currency(), mandate.total(),
					createdAt.atOffset(ZoneOffset.UTC))
			.update(keys, "id");
		return new Order(keys.getKeyAs(Long.class), mandate.id(), mandate.customerId(), mandate.currency(),
				mandate.total(), createdAt);
	}

	Optional<Order> findByCartMandateId(String cartMandateId) {
		return this.jdbc.sql("SELECT " + COLUMNS + " FROM orders WHERE cart_mandate_id = ?")
			.param(cartMandateId)
			.query(OrderRepository::order)
			.optional();
	}

	Optional<Order> findById(long id) {
		return this.jdbc.sql("SELECT " + COLUMNS + " FROM orders WHERE id = ?")
			.param(id)
			.query(OrderRepository::order)
			.optional();
	}

	List<Order> findByCustomerId(String customerId) {
		return this.jdbc.sql("SELECT " + COLUMNS + " FROM orders WHERE customer_id = ? ORDER BY id")
			.param(customerId)
			.query(OrderRepository::order)
			.list();
	}

	private static Order order(ResultSet rs, int row) throws SQLException {
		return new Order(rs.getLong("id"), rs.getString("cart_mandate_id"), rs.getString("customer_id"),
				rs.getString("currency"), rs.getLong("total"),
				rs.getObject("created_at", OffsetDateTime.class).toInstant());
	}

}
