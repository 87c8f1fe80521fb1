package io.github.idempotency.sample.payments;

import java.net.http.HttpResponse;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.support.PaymentsHttpTest;
import io.github.idempotency.testsupport.Http;

import static io.github.idempotency.sample.support.Payments.body;
import static io.github.idempotency.sample.support.Payments.customer;
import static io.github.idempotency.sample.support.Payments.json;
import static io.github.idempotency.sample.support.Payments.newKey;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP idempotency contract of {@code POST /payments} (SPEC 4), on PostgreSQL.
 */
class PaymentIdempotencyTests extends PaymentsHttpTest {

	@Test
	void firstRequestCreatesOnePaymentAndOneChargeAndAnswersCreated() {
		String key = newKey();
		String customer = customer("c-");
		HttpResponse<byte[]> response = this.http.post("/payments").key(key).json(body(customer, 2999, "USD")).send();
		assertThat(response.statusCode()).isEqualTo(201);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
		assertThat(response.headers().firstValue("Idempotent-Replayed")).isEmpty();
		JsonNode payment = json(response);
		assertThat(response.headers().firstValue("Location")).hasValue("/payments/" + payment.get("id").asLong());
		assertThat(payment.get("customerId").asString()).isEqualTo(customer);
		assertThat(payment.get("amount").asLong()).isEqualTo(2999);
		assertThat(payment.get("currency").asString()).isEqualTo("USD");
		assertThat(payment.get("status").asString()).isEqualTo("SUCCEEDED");
		assertThat(this.db.payments()).isOne();
		assertThat(this.db.charges()).isOne();
		Map<String, Object> charge = this.db.onlyCharge();
		assertThat(charge).containsEntry("idempotency_key", "default:create-payment:" + key)
			.containsEntry("customer_id", customer)
			.containsEntry("amount", 2999L)
			.containsEntry("attempts", 1);
		assertThat(payment.get("gatewayChargeId").asString()).isEqualTo(charge.get("id"));
		assertThat(this.db.onlyPayment()).containsEntry("id", payment.get("id").asLong())
			.containsEntry("gateway_charge_id", charge.get("id"));
		JsonNode readBack = json(this.http.get("/payments/" + payment.get("id").asLong()).send());
		assertThat(readBack).isEqualTo(payment);
	}

	@Test
	void replaysStoredResponseForSameKeyAndEquivalentBody() {
		String key = newKey();
		String customer = customer("c-");
		HttpResponse<byte[]> first = this.http.post("/payments")
			.key(key)
			.json("{\"customerId\":\"" + customer + "\",\"amount\":2999,\"currency\":\"USD\"}")
			.send();
		HttpResponse<byte[]> reordered = this.http.post("/payments")
			.key(key)
			.json("{\n  \"currency\" : \"USD\",\n\t\"amount\": 2999 ,  \"customerId\":\"" + customer + "\"\n}\n")
			.send();
		HttpResponse<byte[]> identical = this.http.post("/payments")
			.key(key)
			.json("{\"customerId\":\"" + customer + "\",\"amount\":2999,\"currency\":\"USD\"}")
			.send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
		for (HttpResponse<byte[]> replay : new HttpResponse[] { reordered, identical }) {
			assertThat(replay.statusCode()).isEqualTo(201);
			assertThat(replay.body()).isEqualTo(first.body());
			assertThat(replay.headers().firstValue("Location")).isEqualTo(first.headers().firstValue("Location"));
			assertThat(replay.headers().firstValue("Content-Type"))
				.isEqualTo(first.headers().firstValue("Content-Type"));
			assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		}
		assertThat(this.db.payments()).isOne();
		assertThat(this.db.charges()).isOne();
		assertThat(this.db.onlyCharge()).containsEntry("attempts", 1);
	}

	@Test
	void refusesSameKeyWithDifferentBodyWithoutShowingStoredResponse() {
		String key = newKey();
		String customer = customer("c-");
		HttpResponse<byte[]> first = this.http.post("/payments").key(key).json(body(customer, 2999, "USD")).send();
		HttpResponse<byte[]> changed = this.http.post("/payments").key(key).json(body(customer, 3000, "USD")).send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(changed.statusCode()).isEqualTo(422);
		assertThat(changed.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(changed.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(changed.headers().firstValue("Location")).isEmpty();
		JsonNode problem = json(changed);
		assertThat(problem.get("type").asString()).isEqualTo("urn:problem-type:idempotency:key-reused");
		assertThat(problem.get("status").asInt()).isEqualTo(422);
		String gatewayChargeId = json(first).get("gatewayChargeId").asString();
		assertThat(Http.text(changed)).doesNotContain(gatewayChargeId).doesNotContain(customer);
		assertThat(problem.has("gatewayChargeId")).isFalse();
		assertThat(problem.has("id")).isFalse();
		assertThat(this.db.payments()).isOne();
		assertThat(this.db.onlyPayment()).containsEntry("amount", 2999L);
		assertThat(this.db.charges()).isOne();
		assertThat(this.db.onlyCharge()).containsEntry("attempts", 1);
	}

	@Test
	void refusesRequestWithoutKeyAndStoresNothing() {
		HttpResponse<byte[]> response = this.http.post("/payments").json(body(customer("c-"), 2999, "USD")).send();
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(json(response).get("type").asString()).isEqualTo("urn:problem-type:idempotency:missing-key");
		assertThat(this.db.records()).isZero();
		assertThat(this.db.payments()).isZero();
		assertThat(this.db.charges()).isZero();
	}

	@Test
	void treatsSameKeyFromAnotherTenantAsAnIndependentRequest() {
		String key = newKey();
		String customer = customer("c-");
		HttpResponse<byte[]> acme = this.http.post("/payments")
			.tenant("acme")
			.key(key)
			.json(body(customer, 2999, "USD"))
			.send();
		HttpResponse<byte[]> globex = this.http.post("/payments")
			.tenant("globex")
			.key(key)
			.json(body(customer, 2999, "USD"))
			.send();
		assertThat(acme.statusCode()).isEqualTo(201);
		assertThat(globex.statusCode()).isEqualTo(201);
		assertThat(globex.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(globex.body()).isNotEqualTo(acme.body());
		JsonNode acmePayment = json(acme);
		JsonNode globexPayment = json(globex);
		assertThat(globexPayment.get("id")).isNotEqualTo(acmePayment.get("id"));
		assertThat(globexPayment.get("gatewayChargeId")).isNotEqualTo(acmePayment.get("gatewayChargeId"));
		assertThat(this.db.payments("acme")).isOne();
		assertThat(this.db.payments("globex")).isOne();
		assertThat(this.db.charges()).isEqualTo(2);
		assertThat(this.db.record("acme", key)).containsEntry("status", "COMPLETED");
		assertThat(this.db.record("globex", key)).containsEntry("status", "COMPLETED");
		HttpResponse<byte[]> globexRetry = this.http.post("/payments")
			.tenant("globex")
			.key(key)
			.json(body(customer, 2999, "USD"))
			.send();
		assertThat(globexRetry.body()).isEqualTo(globex.body());
		assertThat(globexRetry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		JsonNode acmeView = json(this.http.get("/payments?customerId=" + customer).tenant("acme").send());
		assertThat(acmeView).hasSize(1);
		assertThat(acmeView.get(0)).isEqualTo(acmePayment);
		HttpResponse<byte[]> crossTenantRead = this.http.get("/payments/" + globexPayment.get("id").asLong())
			.tenant("acme")
			.send();
		assertThat(crossTenantRead.statusCode()).isEqualTo(404);
	}

}
