package io.github.idempotency.sample.webhooks;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import io.github.idempotency.sample.payments.PaymentStatus;

/**
 * Stores the state of charges by the gateway's webhooks in {@code gateway_payment}, and each
 * applied event in {@code gateway_payment_event}. A charge is a payment's {@code gateway_charge_id}
 * once the gateway accepted it; it has no {@code gateway_payment} row until its first event, and
 * is {@link GatewayPaymentState#PENDING} until then.
 */
@Repository
class GatewayPaymentRepository {

	private static final String CHARGED_PAYMENT = "SELECT id FROM payment WHERE gateway_charge_id = ? AND status = '"
			+ PaymentStatus.SUCCEEDED.name() + "'";

	private final JdbcClient jdbc;

	GatewayPaymentRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Return the payment charged with a gateway transaction.
	 * @param transactionId the gateway's transaction id
	 * @return the payment id, or empty if no payment was charged with it
	 */
	Optional<Long> chargedPayment(String transactionId) {
		return this.jdbc.sql(CHARGED_PAYMENT).param(transactionId).query(Long.class).optional();
	}

	/**
	 * Return the payment charged with a gateway transaction, and lock its row until the current
	 * transaction ends, so that the events of one charge apply one at a time.
	 * @param transactionId the gateway's transaction id
	 * @return the payment id, or empty if no payment was charged with it
	 */
	Optional<Long> lockChargedPayment(String transactionId) {
		return this.jdbc.sql(CHARGED_PAYMENT + " FOR UPDATE").param(transactionId).query(Long.class).optional();
	}

	/**
	 * Return the state of a charge.
	 * @param transactionId the gateway's transaction id
	 * @return the state, or empty if no event was applied to the charge yet
	 */
	Optional<GatewayPaymentState> state(String transactionId) {
		return this.jdbc.sql("SELECT state FROM gateway_payment WHERE transaction_id = ?")
			.param(transactionId)
			.query((rs, row) -> GatewayPaymentState.valueOf(rs.getString("state")))
			.optional();
	}

	/**
	 * Return an event of a type that was applied to a charge.
	 * @param transactionId the gateway's transaction id
	 * @param type the event type
	 * @return the event, or empty if no event of the type was applied
	 */
	Optional<AppliedGatewayEvent> applied(String transactionId, GatewayEventType type) {
		return this.jdbc
			.sql("SELECT event_type, from_state, to_state, applied_at FROM gateway_payment_event "
					+ "WHERE transaction_id = ? AND event_type = ?")
			.params(transactionId, type.value())
			.query(GatewayPaymentRepository::applied)
			.optional();
	}

	/**
	 * Return the events applied to a charge.
	 * @param transactionId the gateway's transaction id
	 * @return the events, in the order applied
	 */
	List<AppliedGatewayEvent> events(String transactionId) {
		return this.jdbc
			.sql("SELECT event_type, from_state, to_state, applied_at FROM gateway_payment_event "
					+ "WHERE transaction_id = ? ORDER BY id")
			.param(transactionId)
			.query(GatewayPaymentRepository::applied)
			.list();
	}

	/**
	 * Move a charge to the state of an event and record the event; the caller holds the lock of
	 * the charge's payment.
	 * @param transactionId the gateway's transaction id
	 * @param paymentId the payment charged with it
	 * @param event the event, from the charge's current state
	 */
	void apply(String transactionId, long paymentId, AppliedGatewayEvent event) {
		OffsetDateTime at = event.appliedAt().atOffset(ZoneOffset.UTC);
		if (event.from() == GatewayPaymentState.PENDING) {
			this.jdbc
				.sql("INSERT INTO gateway_payment (transaction_id, payment_id, state, updated_at) VALUES (?, ?, ?, ?)")
				.params(transactionId, paymentId, event.to().name(), at)
				.update();
		}
		else if (this.jdbc
			.sql("UPDATE gateway_payment SET state = ?, updated_at = ? WHERE transaction_id = ? AND state = ?")
			.params(event.to().name(), at, transactionId, event.from().name())
			.update() != 1) {
			throw new IllegalStateException("Transaction " + transactionId + " is no longer " + event.from());
		}
		this.jdbc
			.sql("INSERT INTO gateway_payment_event (transaction_id, event_type, from_state, to_state, applied_at) "
					+ "VALUES (?, ?, ?, ?, ?)")
			.params(transactionId, event.event(), event.from().name(), event.to().name(), at)
			.update();
	}

	private static AppliedGatewayEvent applied(ResultSet rs, int row) throws SQLException {
		return new AppliedGatewayEvent(rs.getString("event_type"),
				GatewayPaymentState.valueOf(rs.getString("from_state")),
				GatewayPaymentState.valueOf(rs.getString("to_state")),
				rs.getObject("applied_at", OffsetDateTime.class).toInstant());
	}

}
