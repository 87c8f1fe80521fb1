package io.github.idempotency.sample.payments;

import java.net.http.HttpResponse;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.support.PaymentsHttpTest;

import static io.github.idempotency.sample.support.Payments.body;
import static io.github.idempotency.sample.support.Payments.customer;
import static io.github.idempotency.sample.support.Payments.json;
import static io.github.idempotency.sample.support.Payments.newKey;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Final errors of {@code POST /payments} are stored and replayed, and transient ones release the
 * key for a retry (SPEC 5), on PostgreSQL.
 */
class PaymentOutcomeTests extends PaymentsHttpTest {

	private static final String PROBLEMS = "https://payments.example/problems/";

	@Test
	void storesAndReplaysValidationProblemForNonPositiveAmount() {
		String key = newKey();
		String request = body(customer("c-"), 0, "USD");
		HttpResponse<byte[]> first = this.http.post("/payments").key(key).json(request).send();
		assertThat(first.statusCode()).isEqualTo(400);
		assertThat(first.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(json(first).get("type").asString()).isEqualTo(PROBLEMS + "invalid-payment");
		assertThat(this.db.record("default", key)).containsEntry("status", "COMPLETED")
			.containsEntry("response_status", 400);
		HttpResponse<byte[]> replay = this.http.post("/payments").key(key).json(request).send();
		assertReplayOf(replay, first);
		assertThat(this.db.payments()).isZero();
		assertThat(this.db.charges()).isZero();
	}

	@ParameterizedTest
	@ValueSource(strings = { "{}", "{\"amount\":100,\"currency\":\"USD\"}",
			"{\"customerId\":\"c-1\",\"currency\":\"USD\"}", "{\"customerId\":\"c-1\",\"amount\":100}",
			"{\"customerId\":\"c-1\",\"amount\":-5,\"currency\":\"USD\"}",
			"{\"customerId\":\"c-1\",\"amount\":100,\"currency\":\"XYZ\"}",
			"{\"customerId\":\"c-1\",\"amount\":100,\"currency\":\"usd\"}" })
	void storesValidationProblemForMissingFieldsAndUnknownCurrencyAfterTheClaim(String request) {
		String key = newKey();
		HttpResponse<byte[]> response = this.http.post("/payments").key(key).json(request).send();
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(json(response).get("type").asString()).isEqualTo(PROBLEMS + "invalid-payment");
		Map<String, Object> record = this.db.record("default", key);
		assertThat(record).containsEntry("status", "COMPLETED").containsEntry("response_status", 400);
		assertThat((byte[]) record.get("response_body")).isEqualTo(response.body());
		assertThat(this.db.payments()).isZero();
		assertThat(this.db.charges()).isZero();
	}

	@Test
	void storesAndReplaysDeclineWithoutCallingTheGatewayAgain() {
		String key = newKey();
		String request = body(customer("decline-"), 2999, "USD");
		HttpResponse<byte[]> first = this.http.post("/payments").key(key).json(request).send();
		assertThat(first.statusCode()).isEqualTo(402);
		assertThat(first.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		JsonNode problem = json(first);
		assertThat(problem.get("type").asString()).isEqualTo(PROBLEMS + "declined");
		HttpResponse<byte[]> replay = this.http.post("/payments").key(key).json(request).send();
		assertReplayOf(replay, first);
		assertThat(this.db.charges()).isOne();
		assertThat(this.db.succeededCharges()).isZero();
		assertThat(this.db.onlyCharge()).containsEntry("status", "DECLINED")
			.containsEntry("attempts", 1)
			.containsEntry("id", problem.get("gatewayChargeId").asString());
		assertThat(this.db.onlyPayment()).containsEntry("status", "DECLINED")
			.containsEntry("id", problem.get("paymentId").asLong());
	}

	@Test
	void releasesKeyOnTransientGatewayFailureSoThatRetryChargesOnce() {
		String key = newKey();
		String request = body(customer("flaky-"), 2999, "USD");
		HttpResponse<byte[]> failed = this.http.post("/payments").key(key).json(request).send();
		assertThat(failed.statusCode()).isEqualTo(503);
		assertThat(failed.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(json(failed).get("type").asString()).isEqualTo(PROBLEMS + "gateway-unavailable");
		// Nothing stored: the released record keeps only what the attempt went through.
		assertThat(this.db.record("default", key)).containsEntry("status", "RELEASED")
			.containsEntry("response_status", null)
			.containsEntry("attempts", 1)
			.containsEntry("last_failure", "io.github.idempotency.sample.gateway.GatewayUnavailableException");
		assertThat(this.db.charges()).isZero();
		HttpResponse<byte[]> retry = this.http.post("/payments").key(key).json(request).send();
		assertThat(retry.statusCode()).isEqualTo(201);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(this.db.charges()).isOne();
		assertThat(this.db.onlyCharge()).containsEntry("status", "SUCCEEDED").containsEntry("attempts", 1);
		assertThat(this.db.payments()).isOne();
		assertThat(this.db.onlyPayment()).containsEntry("status", "SUCCEEDED")
			.containsEntry("id", json(retry).get("id").asLong());
		HttpResponse<byte[]> replay = this.http.post("/payments").key(key).json(request).send();
		assertReplayOf(replay, retry);
		assertThat(this.db.charges()).isOne();
	}

	private static void assertReplayOf(HttpResponse<byte[]> replay, HttpResponse<byte[]> original) {
		assertThat(replay.statusCode()).isEqualTo(original.statusCode());
		assertThat(replay.body()).isEqualTo(original.body());
		assertThat(replay.headers().firstValue("Content-Type"))
			.isEqualTo(original.headers().firstValue("Content-Type"));
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
	}

}
