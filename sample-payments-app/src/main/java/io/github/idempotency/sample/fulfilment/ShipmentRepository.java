package io.github.idempotency.sample.fulfilment;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Repository;

/**
 * Stores shipments in {@code shipment}.
 */
@Repository
class ShipmentRepository {

	private final JdbcClient jdbc;

	ShipmentRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	Shipment insert(OrderPlaced event, String trackingNumber) {
		Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
		KeyHolder id = new GeneratedKeyHolder();
		this.jdbc
			.sql("INSERT INTO shipment (order_id, customer_id, items, tracking_number, scheduled_at) "
					+ "VALUES (?, ?, ?, ?, ?)")
			.params(event.orderId(), event.customerId(), event.items(), trackingNumber,
					OffsetDateTime.ofInstant(now, ZoneOffset.UTC))
			.update(id, "id");
		return new Shipment(id.getKey().longValue(), event.orderId(), event.customerId(), event.items(),
				trackingNumber, now);
	}

	List<Shipment> find(String orderId) {
		String where = (orderId != null) ? " WHERE order_id = ?" : "";
		JdbcClient.StatementSpec statement = this.jdbc
			.sql("SELECT id, order_id, customer_id, items, tracking_number, scheduled_at FROM shipment" + where
					+ " ORDER BY id");
		if (orderId != null) {
			statement = statement.param(orderId);
		}
		return statement.query((row, number) -> new Shipment(row.getLong("id"), row.getString("order_id"),
				row.getString("customer_id"), row.getInt("items"), row.getString("tracking_number"),
				row.getObject("scheduled_at", OffsetDateTime.class).toInstant()))
			.list();
	}

}
