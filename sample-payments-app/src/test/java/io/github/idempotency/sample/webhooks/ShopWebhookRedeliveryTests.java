package io.github.idempotency.sample.webhooks;

import java.net.http.HttpResponse;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.support.PostgresFlowTest;

import static io.github.idempotency.sample.support.Payments.json;
import static io.github.idempotency.sample.support.ShopWebhooks.body;
import static io.github.idempotency.sample.support.ShopWebhooks.deliver;
import static io.github.idempotency.sample.support.ShopWebhooks.eventId;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shop may deliver an event more than once: every delivery of an event gets the bytes of the
 * first answer, and the handler runs once, counted in the database.
 */
class ShopWebhookRedeliveryTests extends PostgresFlowTest {

	@Test
	void redeliveredEventGetsTheFirstResponseAndIsHandledOnce() {
		String eventId = eventId();
		String body = body(42);
		HttpResponse<byte[]> first = deliver(this.http, eventId, body);
		HttpResponse<byte[]> second = deliver(this.http, eventId, body);
		HttpResponse<byte[]> third = deliver(this.http, eventId, body);
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
		JsonNode receipt = json(first);
		assertThat(receipt.get("eventId").asString()).isEqualTo(eventId);
		assertThat(receipt.get("topic").asString()).isEqualTo("orders/paid");
		for (HttpResponse<byte[]> redelivery : new HttpResponse[] { second, third }) {
			assertThat(redelivery.statusCode()).isEqualTo(200);
			assertThat(redelivery.headers().firstValue("Idempotent-Replayed")).hasValue("true");
			assertThat(redelivery.body()).isEqualTo(first.body());
		}
		assertThat(this.db.webhookRuns(eventId)).isOne();
	}

	@Test
	void processedEventsAreListedWithHowOftenEachWasHandled() {
		String once = eventId();
		String redelivered = eventId();
		deliver(this.http, once, body(1));
		deliver(this.http, redelivered, body(2));
		deliver(this.http, redelivered, body(2));
		JsonNode events = json(this.http.get("/webhooks/shop/events").send());
		assertThat(events.size()).isEqualTo(2);
		assertThat(events.get(0).get("eventId").asString()).isEqualTo(once);
		assertThat(events.get(1).get("eventId").asString()).isEqualTo(redelivered);
		assertThat(events.get(0).get("handledCount").asLong()).isOne();
		assertThat(events.get(1).get("handledCount").asLong()).isOne();
		assertThat(this.db.webhookRuns()).isEqualTo(2);
	}

	@Test
	void eventIsRememberedForSevenDays() {
		String eventId = eventId();
		deliver(this.http, eventId, body(7));
		Map<String, Object> record = this.db.record("shop-webhook", "webhook:shop:" + eventId);
		Duration ttl = Duration.between(((Timestamp) record.get("completed_at")).toInstant(),
				((Timestamp) record.get("expires_at")).toInstant());
		assertThat(ttl).isBetween(Duration.ofDays(7).minusSeconds(5), Duration.ofDays(7).plusSeconds(5));
	}

}
