package io.github.idempotency.sample.sessions;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Stores the carts of sessions: their items in {@code session_cart_item}, and each applied update
 * as a row of {@code session_cart_update}, in the order applied.
 */
@Repository
class SessionCartRepository {

	private final JdbcClient jdbc;

	SessionCartRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Return the number of the last update applied to a session's cart.
	 * @param sessionId the session
	 * @return the number, or {@code 0} if none was applied
	 */
	long lastSequence(String sessionId) {
		return this.jdbc
			.sql("SELECT COALESCE(MAX(sequence_number), 0) FROM session_cart_update WHERE session_id = ?")
			.param(sessionId)
			.query(Long.class)
			.single();
	}

	/**
	 * Apply an update to a session's cart; the caller holds the session's lock.
	 * @param sessionId the session
	 * @param update the update, numbered above the last one applied
	 */
	void apply(String sessionId, CartUpdate update) {
		this.jdbc.sql("INSERT INTO session_cart_update (session_id, sequence_number, applied_at) VALUES (?, ?, ?)")
			.params(sessionId, update.sequence(),
					Instant.now().truncatedTo(ChronoUnit.MILLIS).atOffset(ZoneOffset.UTC))
			.update();
		for (CartChange change : update.changes()) {
			if (change.quantity() == 0) {
				this.jdbc.sql("DELETE FROM session_cart_item WHERE session_id = ? AND sku = ?")
					.params(sessionId, change.sku())
					.update();
			}
			else if (this.jdbc.sql("UPDATE session_cart_item SET quantity = ? WHERE session_id = ? AND sku = ?")
				.params(change.quantity(), sessionId, change.sku())
				.update() == 0) {
				this.jdbc.sql("INSERT INTO session_cart_item (session_id, sku, quantity) VALUES (?, ?, ?)")
					.params(sessionId, change.sku(), change.quantity())
					.update();
			}
		}
	}

	/**
	 * Return a session's cart.
	 * @param sessionId the session
	 * @return the cart, its items sorted by sku here, as the database's collation may order text
	 * otherwise
	 */
	SessionCart find(String sessionId) {
		List<SessionCart.Item> items = this.jdbc
			.sql("SELECT sku, quantity FROM session_cart_item WHERE session_id = ?")
			.param(sessionId)
			.query((rs, row) -> new SessionCart.Item(rs.getString("sku"), rs.getInt("quantity")))
			.list()
			.stream()
			.sorted(Comparator.comparing(SessionCart.Item::sku))
			.toList();
		return new SessionCart(sessionId, lastSequence(sessionId), items);
	}

}
