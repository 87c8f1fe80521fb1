package io.github.idempotency.sample.webhooks;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Records every run of the shop webhook handler in {@code shop_webhook_run}, one row per run, so
 * that a duplicate run would show.
 */
@Repository
class ShopWebhookRepository {

	private final JdbcClient jdbc;

	ShopWebhookRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	void recordRun(ShopWebhookReceipt receipt) {
		this.jdbc
			.sql("INSERT INTO shop_webhook_run (event_id, topic, payload_sha256, handled_at) VALUES (?, ?, ?, ?)")
			.params(receipt.eventId(), receipt.topic(), receipt.payloadSha256(),
					receipt.handledAt().atOffset(ZoneOffset.UTC))
			.update();
	}

	List<ProcessedShopEvent> findProcessedEvents() {
		return this.jdbc
			.sql("SELECT event_id, MIN(topic) AS topic, COUNT(*) AS handled_count, MIN(handled_at) AS first_handled_at "
					+ "FROM shop_webhook_run GROUP BY event_id ORDER BY MIN(handled_at), event_id")
			.query((rs, row) -> new ProcessedShopEvent(rs.getString("event_id"), rs.getString("topic"),
					rs.getLong("handled_count"), rs.getObject("first_handled_at", OffsetDateTime.class).toInstant()))
			.list();
	}

}
