package io.github.idempotency.sample.support;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;

/**
 * Reads the effects of the flows back from PostgreSQL, and empties their tables between tests.
 */
public final class FlowsDatabase {

	private final JdbcTemplate jdbc;

	public FlowsDatabase(JdbcTemplate jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Delete every mandate, order, webhook run, ledger entry, payment, charge and its gateway state,
	 * session and its cart, synchronised product and user, agent task and idempotency record.
	 */
	public void clear() {
		this.jdbc.execute("TRUNCATE TABLE orders, cart_mandate_item, cart_mandate, shop_webhook_run, ledger_entry, "
				+ "payment, gateway_charge, gateway_payment_event, gateway_payment, session_cart_item, "
				+ "session_cart_update, user_session, intent_mandate_merchant, intent_mandate_sku, intent_mandate, "
				+ "user_consent_history, app_user, product, agent_task_attempt, agent_task, idempotency_record");
	}

	public long mandates() {
		return count("SELECT count(*) FROM cart_mandate");
	}

	public long orders() {
		return count("SELECT count(*) FROM orders");
	}

	public long ordersOf(String cartMandateId) {
		return count("SELECT count(*) FROM orders WHERE cart_mandate_id = ?", cartMandateId);
	}

	public long webhookRuns(String eventId) {
		return count("SELECT count(*) FROM shop_webhook_run WHERE event_id = ?", eventId);
	}

	public long webhookRuns() {
		return count("SELECT count(*) FROM shop_webhook_run");
	}

	public long ledgerEntries(long paymentId) {
		return count("SELECT count(*) FROM ledger_entry WHERE payment_id = ?", paymentId);
	}

	public long ledgerEntries() {
		return count("SELECT count(*) FROM ledger_entry");
	}

	public long payments() {
		return count("SELECT count(*) FROM payment");
	}

	public long charges(String customerId) {
		return count("SELECT count(*) FROM gateway_charge WHERE customer_id = ?", customerId);
	}

	public long sessions() {
		return count("SELECT count(*) FROM user_session");
	}

	public long intentMandates() {
		return count("SELECT count(*) FROM intent_mandate");
	}

	public long agentTaskRuns(String taskId) {
		return count("SELECT count(*) FROM agent_task_attempt WHERE task_id = ?", taskId);
	}

	/**
	 * Return the numbers of the updates applied to a session's cart.
	 * @param sessionId the session
	 * @return the numbers, in the order applied
	 */
	public List<Long> cartUpdates(String sessionId) {
		return this.jdbc.queryForList(
				"SELECT sequence_number FROM session_cart_update WHERE session_id = ? ORDER BY id", Long.class,
				sessionId);
	}

	/**
	 * Return the items of a session's cart.
	 * @param sessionId the session
	 * @return the quantity of each sku, sorted by sku
	 */
	public Map<String, Integer> cartItems(String sessionId) {
		Map<String, Integer> items = new TreeMap<>();
		RowCallbackHandler item = (rs) -> {
			items.put(rs.getString("sku"), rs.getInt("quantity"));
		};
		this.jdbc.query("SELECT sku, quantity FROM session_cart_item WHERE session_id = ?", item, sessionId);
		return items;
	}

	/**
	 * Return the state of a charge by the gateway's webhooks.
	 * @param transactionId the gateway's transaction id
	 * @return the state, or {@code null} before its first event
	 */
	public String gatewayState(String transactionId) {
		List<String> states = this.jdbc.queryForList("SELECT state FROM gateway_payment WHERE transaction_id = ?",
				String.class, transactionId);
		return states.isEmpty() ? null : states.get(0);
	}

	/**
	 * Return the events applied to a charge.
	 * @param transactionId the gateway's transaction id
	 * @return the event types, in the order applied
	 */
	public List<String> gatewayEvents(String transactionId) {
		return this.jdbc.queryForList(
				"SELECT event_type FROM gateway_payment_event WHERE transaction_id = ? ORDER BY id", String.class,
				transactionId);
	}

	/**
	 * Return the values of a reference attached to a key in the default tenant.
	 * @param operation the operation name
	 * @param key the key
	 * @param name the reference's name
	 * @return the values
	 */
	public List<String> references(String operation, String key, String name) {
		return this.jdbc.queryForList(
				"SELECT reference_value FROM idempotency_reference WHERE tenant_id = 'default' AND operation = ? "
						+ "AND idempotency_key = ? AND reference_name = ?",
				String.class, operation, key, name);
	}

	public long records(String operation) {
		return count("SELECT count(*) FROM idempotency_record WHERE operation = ?", operation);
	}

	/**
	 * Return the idempotency record of a key in the default tenant, or {@code null}.
	 * @param operation the operation name
	 * @param key the key
	 * @return its columns
	 */
	public Map<String, Object> record(String operation, String key) {
		List<Map<String, Object>> records = this.jdbc.queryForList(
				"SELECT * FROM idempotency_record WHERE tenant_id = 'default' AND operation = ? AND idempotency_key = ?",
				operation, key);
		return records.isEmpty() ? null : records.get(0);
	}

	/**
	 * Return rows of a query.
	 * @param sql the query
	 * @param args its arguments
	 * @return the rows, each by column name
	 */
	public List<Map<String, Object>> rows(String sql, Object... args) {
		return this.jdbc.queryForList(sql, args);
	}

	/**
	 * Make the completed idempotency record of a key in the default tenant expire a second ago, as
	 * if its TTL had run out; it is then treated as absent.
	 * @param operation the operation name
	 * @param key the key
	 */
	public void expireRecord(String operation, String key) {
		if (this.jdbc.update("UPDATE idempotency_record SET expires_at = now() - interval '1 second' "
				+ "WHERE tenant_id = 'default' AND operation = ? AND idempotency_key = ? AND status = 'COMPLETED'",
				operation, key) != 1) {
			throw new AssertionError("No completed record of " + operation + " for the key");
		}
	}

	/**
	 * Make a session expire a second ago.
	 * @param sessionId the session id
	 */
	public void expireSession(String sessionId) {
		if (this.jdbc.update("UPDATE user_session SET expires_at = now() - interval '1 second' WHERE id = ?",
				sessionId) != 1) {
			throw new AssertionError("No session " + sessionId);
		}
	}

	/**
	 * Make a cart mandate expire a minute ago.
	 * @param cartMandateId the mandate id
	 */
	public void expireMandate(String cartMandateId) {
		update("UPDATE cart_mandate SET expires_at = now() - interval '1 minute' WHERE id = ?", cartMandateId);
	}

	/**
	 * Make a cart mandate valid for another hour.
	 * @param cartMandateId the mandate id
	 */
	public void renewMandate(String cartMandateId) {
		update("UPDATE cart_mandate SET expires_at = now() + interval '1 hour' WHERE id = ?", cartMandateId);
	}

	private void update(String sql, String id) {
		if (this.jdbc.update(sql, id) != 1) {
			throw new AssertionError("No cart mandate " + id);
		}
	}

	private long count(String sql, Object... args) {
		Long count = this.jdbc.queryForObject(sql, Long.class, args);
		return (count != null) ? count : 0;
	}

}
