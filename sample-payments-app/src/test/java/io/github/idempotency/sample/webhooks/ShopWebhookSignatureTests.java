package io.github.idempotency.sample.webhooks;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import io.github.idempotency.sample.support.PostgresFlowTest;

import static io.github.idempotency.sample.support.Payments.json;
import static io.github.idempotency.sample.support.ShopWebhooks.SECRET;
import static io.github.idempotency.sample.support.ShopWebhooks.body;
import static io.github.idempotency.sample.support.ShopWebhooks.deliver;
import static io.github.idempotency.sample.support.ShopWebhooks.eventId;
import static io.github.idempotency.sample.support.ShopWebhooks.sign;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A webhook without the shop's signature is refused with 401 before its event's key is claimed:
 * nothing is stored, the handler does not run, and the genuine delivery is handled afterwards.
 */
class ShopWebhookSignatureTests extends PostgresFlowTest {

	private static final String INVALID_SIGNATURE = "https://payments.example/problems/invalid-webhook-signature";

	@Test
	void forgedSignatureIsRefusedWithoutClaimingTheEvent() {
		String eventId = eventId();
		String body = body(42);
		HttpResponse<byte[]> forged = this.http.post("/webhooks/shop")
			.header("X-Shop-Event-Id", eventId)
			.header("X-Shop-Hmac-Sha256", sign(body, "not-" + SECRET))
			.json(body)
			.send();
		assertRefused(forged);
		assertThat(this.db.record("shop-webhook", "webhook:shop:" + eventId)).isNull();
		assertThat(this.db.webhookRuns(eventId)).isZero();
		HttpResponse<byte[]> genuine = deliver(this.http, eventId, body);
		assertThat(genuine.statusCode()).isEqualTo(200);
		assertThat(genuine.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(this.db.webhookRuns(eventId)).isOne();
	}

	@Test
	void missingSignatureIsRefusedAndNothingIsStored() {
		String eventId = eventId();
		assertRefused(this.http.post("/webhooks/shop").header("X-Shop-Event-Id", eventId).json(body(42)).send());
		assertThat(this.db.records("shop-webhook")).isZero();
		assertThat(this.db.webhookRuns()).isZero();
	}

	@Test
	void signatureOfAnotherBodyIsRefusedAndNothingIsStored() {
		HttpResponse<byte[]> tampered = this.http.post("/webhooks/shop")
			.header("X-Shop-Event-Id", eventId())
			.header("X-Shop-Hmac-Sha256", sign(body(42), SECRET))
			.json(body(43))
			.send();
		assertRefused(tampered);
		assertThat(this.db.records("shop-webhook")).isZero();
		assertThat(this.db.webhookRuns()).isZero();
	}

	@Test
	void malformedSignatureIsRefusedAndNothingIsStored() {
		assertRefused(this.http.post("/webhooks/shop")
			.header("X-Shop-Event-Id", eventId())
			.header("X-Shop-Hmac-Sha256", "not base64!")
			.json(body(42))
			.send());
		assertThat(this.db.records("shop-webhook")).isZero();
		assertThat(this.db.webhookRuns()).isZero();
	}

	@Test
	void signedWebhookWithoutEventIdIsRefusedAndNothingIsStored() {
		String body = body(42);
		HttpResponse<byte[]> response = this.http.post("/webhooks/shop")
			.header("X-Shop-Hmac-Sha256", sign(body, SECRET))
			.json(body)
			.send();
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(json(response).get("type").asString())
			.isEqualTo("https://payments.example/problems/invalid-webhook-event-id");
		assertThat(this.db.records("shop-webhook")).isZero();
		assertThat(this.db.webhookRuns()).isZero();
	}

	private static void assertRefused(HttpResponse<byte[]> response) {
		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(response.headers().firstValue("WWW-Authenticate")).isPresent();
		assertThat(json(response).get("type").asString()).isEqualTo(INVALID_SIGNATURE);
	}

}
