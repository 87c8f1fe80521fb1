package io.github.idempotency.sample.webhooks;

import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.support.GatewayWebhooks;
import io.github.idempotency.sample.support.PostgresFlowTest;
import io.github.idempotency.sample.support.ShopWebhooks;

import static io.github.idempotency.sample.support.GatewayWebhooks.FAILED;
import static io.github.idempotency.sample.support.GatewayWebhooks.REFUNDED;
import static io.github.idempotency.sample.support.GatewayWebhooks.SUCCEEDED;
import static io.github.idempotency.sample.support.GatewayWebhooks.body;
import static io.github.idempotency.sample.support.GatewayWebhooks.charge;
import static io.github.idempotency.sample.support.GatewayWebhooks.deliver;
import static io.github.idempotency.sample.support.GatewayWebhooks.key;
import static io.github.idempotency.sample.support.GatewayWebhooks.send;
import static io.github.idempotency.sample.support.Payments.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /webhooks/gateway} keys an event {@code webhook:fakepay:{transactionId}:{eventType}}
 * and applies it to the charge's state machine: a redelivery replays, an event that can never
 * apply is refused with a stored 409, an early one with a 409 that is not stored, so that its
 * redelivery applies it, and nothing changes for a refused event.
 */
class GatewayWebhookTests extends PostgresFlowTest {

	private static final String OPERATION = "gateway-webhook";

	private static final String INVALID_TRANSITION = "https://payments.example/problems/invalid-gateway-transition";

	private static final String OUT_OF_ORDER = "https://payments.example/problems/gateway-event-out-of-order";

	private String transaction;

	@BeforeEach
	void chargeAPayment() {
		this.transaction = charge(this.http);
	}

	@Test
	void eventsMoveTheChargeThroughItsStatesAndItsTransactionLeadsToTheirKeys() {
		JsonNode pending = json(this.http.get("/webhooks/gateway/payments/" + this.transaction).send());
		assertThat(pending.get("state").asString()).isEqualTo("PENDING");
		assertThat(pending.get("events").isEmpty()).isTrue();
		HttpResponse<byte[]> succeeded = deliver(this.http, SUCCEEDED, this.transaction);
		assertThat(succeeded.statusCode()).isEqualTo(200);
		JsonNode receipt = json(succeeded);
		assertThat(receipt.get("gateway").asString()).isEqualTo("fakepay");
		assertThat(receipt.get("transactionId").asString()).isEqualTo(this.transaction);
		assertThat(receipt.get("paymentId").asLong()).isEqualTo(pending.get("paymentId").asLong());
		assertThat(receipt.get("event").asString()).isEqualTo(SUCCEEDED);
		assertThat(receipt.get("from").asString()).isEqualTo("PENDING");
		assertThat(receipt.get("to").asString()).isEqualTo("SUCCEEDED");
		HttpResponse<byte[]> refunded = deliver(this.http, REFUNDED, this.transaction);
		assertThat(refunded.statusCode()).isEqualTo(200);
		assertThat(json(refunded).get("to").asString()).isEqualTo("REFUNDED");
		JsonNode payment = json(this.http.get("/webhooks/gateway/payments/" + this.transaction).send());
		assertThat(payment.get("state").asString()).isEqualTo("REFUNDED");
		assertThat(payment.get("events").valueStream().map((event) -> event.get("event").asString()))
			.containsExactly(SUCCEEDED, REFUNDED);
		assertThat(this.db.gatewayState(this.transaction)).isEqualTo("REFUNDED");
		assertThat(this.db.gatewayEvents(this.transaction)).containsExactly(SUCCEEDED, REFUNDED);
		for (String type : List.of(SUCCEEDED, REFUNDED)) {
			assertThat(this.db.record(OPERATION, key(type, this.transaction))).containsEntry("status", "COMPLETED");
			assertThat(this.db.references(OPERATION, key(type, this.transaction), "gateway_transaction"))
				.containsExactly(this.transaction);
		}
		JsonNode search = json(this.http
			.get("/actuator/idempotency?reference=gateway_transaction&value=" + this.transaction)
			.send());
		assertThat(search.get("keys").valueStream().map((found) -> found.get("operation").asString()))
			.containsExactly(OPERATION, OPERATION);
	}

	@Test
	void aRedeliveredEventIsReplayedAndAppliedOnce() {
		HttpResponse<byte[]> first = deliver(this.http, SUCCEEDED, this.transaction);
		for (int i = 0; i < 2; i++) {
			HttpResponse<byte[]> again = deliver(this.http, SUCCEEDED, this.transaction);
			assertThat(again.statusCode()).isEqualTo(200);
			assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
			assertThat(again.body()).isEqualTo(first.body());
		}
		assertThat(this.db.gatewayEvents(this.transaction)).containsExactly(SUCCEEDED);
	}

	@Test
	void anEventThatCanNeverApplyIsRefusedWithAStoredAnswerAndChangesNothing() {
		assertThat(deliver(this.http, SUCCEEDED, this.transaction).statusCode()).isEqualTo(200);
		HttpResponse<byte[]> refused = deliver(this.http, FAILED, this.transaction);
		assertThat(refused.statusCode()).isEqualTo(409);
		JsonNode problem = json(refused);
		assertThat(problem.get("type").asString()).isEqualTo(INVALID_TRANSITION);
		assertThat(problem.get("state").asString()).isEqualTo("SUCCEEDED");
		assertThat(problem.get("event").asString()).isEqualTo(FAILED);
		assertThat(this.db.record(OPERATION, key(FAILED, this.transaction))).containsEntry("status", "COMPLETED")
			.containsEntry("response_status", 409);
		HttpResponse<byte[]> again = deliver(this.http, FAILED, this.transaction);
		assertThat(again.statusCode()).isEqualTo(409);
		assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(again.body()).isEqualTo(refused.body());
		assertThat(this.db.gatewayState(this.transaction)).isEqualTo("SUCCEEDED");
		assertThat(this.db.gatewayEvents(this.transaction)).containsExactly(SUCCEEDED);
		String failedCharge = charge(this.http);
		assertThat(deliver(this.http, FAILED, failedCharge).statusCode()).isEqualTo(200);
		HttpResponse<byte[]> refundOfAFailure = deliver(this.http, REFUNDED, failedCharge);
		assertThat(refundOfAFailure.statusCode()).isEqualTo(409);
		assertThat(json(refundOfAFailure).get("type").asString()).isEqualTo(INVALID_TRANSITION);
		assertThat(deliver(this.http, REFUNDED, failedCharge).headers().firstValue("Idempotent-Replayed"))
			.hasValue("true");
		assertThat(this.db.gatewayState(failedCharge)).isEqualTo("FAILED");
		assertThat(this.db.gatewayEvents(failedCharge)).containsExactly(FAILED);
	}

	@Test
	void anEarlyEventIsRefusedWithoutStoringItsAnswerSoThatItsRedeliveryAppliesIt() {
		HttpResponse<byte[]> early = deliver(this.http, REFUNDED, this.transaction);
		assertThat(early.statusCode()).isEqualTo(409);
		assertThat(early.headers().firstValue("Retry-After")).isPresent();
		JsonNode problem = json(early);
		assertThat(problem.get("type").asString()).isEqualTo(OUT_OF_ORDER);
		assertThat(problem.get("state").asString()).isEqualTo("PENDING");
		assertThat(this.db.record(OPERATION, key(REFUNDED, this.transaction))).containsEntry("status", "RELEASED");
		assertThat(this.db.gatewayState(this.transaction)).isNull();
		assertThat(this.db.gatewayEvents(this.transaction)).isEmpty();
		assertThat(deliver(this.http, SUCCEEDED, this.transaction).statusCode()).isEqualTo(200);
		HttpResponse<byte[]> redelivered = deliver(this.http, REFUNDED, this.transaction);
		assertThat(redelivered.statusCode()).isEqualTo(200);
		assertThat(redelivered.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(this.db.gatewayState(this.transaction)).isEqualTo("REFUNDED");
		assertThat(this.db.gatewayEvents(this.transaction)).containsExactly(SUCCEEDED, REFUNDED);
	}

	@Test
	void anEventAppliedBeforeItsRecordExpiredIsAnsweredWithItsFirstReceipt() {
		HttpResponse<byte[]> first = deliver(this.http, SUCCEEDED, this.transaction);
		this.db.expireRecord(OPERATION, key(SUCCEEDED, this.transaction));
		HttpResponse<byte[]> late = deliver(this.http, SUCCEEDED, this.transaction);
		assertThat(late.statusCode()).isEqualTo(200);
		assertThat(late.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(late.body()).isEqualTo(first.body());
		assertThat(this.db.gatewayEvents(this.transaction)).containsExactly(SUCCEEDED);
	}

	@Test
	void anEventAboutATransactionThatChargedNoPaymentIsNotFoundAndStoresNothing() {
		HttpResponse<byte[]> declined = this.http.post("/payments")
			.key("declined-" + this.transaction)
			.json("{\"customerId\":\"decline-" + this.transaction + "\",\"amount\":100,\"currency\":\"USD\"}")
			.send();
		assertThat(declined.statusCode()).isEqualTo(402);
		String declinedCharge = json(declined).get("gatewayChargeId").asString();
		for (String unknown : List.of("ch_unknown", declinedCharge)) {
			HttpResponse<byte[]> response = deliver(this.http, SUCCEEDED, unknown);
			assertThat(response.statusCode()).as(unknown).isEqualTo(404);
			assertThat(json(response).get("type").asString())
				.isEqualTo("https://payments.example/problems/unknown-gateway-transaction");
			assertThat(this.http.get("/webhooks/gateway/payments/" + unknown).send().statusCode()).isEqualTo(404);
			assertThat(this.db.gatewayEvents(unknown)).isEmpty();
		}
		assertThat(this.db.records(OPERATION)).isZero();
	}

	@Test
	void aMalformedEventIsABadRequestBeforeAnythingIsClaimed() {
		for (String body : List.of(body("payment.captured", this.transaction), body(SUCCEEDED, "ch:1"),
				"{\"type\":\"" + SUCCEEDED + "\"}")) {
			HttpResponse<byte[]> response = send(this.http, body, ShopWebhooks.sign(body, GatewayWebhooks.SECRET));
			assertThat(response.statusCode()).as(body).isEqualTo(400);
			assertThat(json(response).get("type").asString())
				.isEqualTo("https://payments.example/problems/invalid-gateway-event");
		}
		assertThat(this.db.records(OPERATION)).isZero();
		assertThat(this.db.gatewayEvents(this.transaction)).isEmpty();
	}

	@Test
	void anUnsignedOrForgedWebhookIsRefusedBeforeAnythingIsClaimed() {
		String body = body(SUCCEEDED, this.transaction);
		for (String signature : new String[] { null, ShopWebhooks.sign(body, ShopWebhooks.SECRET), "not base64!" }) {
			HttpResponse<byte[]> response = send(this.http, body, signature);
			assertThat(response.statusCode()).isEqualTo(401);
			assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Gateway-Hmac-Sha256");
			assertThat(json(response).get("type").asString())
				.isEqualTo("https://payments.example/problems/invalid-webhook-signature");
		}
		assertThat(this.db.records(OPERATION)).isZero();
		assertThat(this.db.gatewayState(this.transaction)).isNull();
		assertThat(deliver(this.http, SUCCEEDED, this.transaction).statusCode()).isEqualTo(200);
	}

}
