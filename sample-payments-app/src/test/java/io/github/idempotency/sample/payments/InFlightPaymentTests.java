package io.github.idempotency.sample.payments;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.support.PaymentsHttpTest;

import static io.github.idempotency.sample.support.Payments.body;
import static io.github.idempotency.sample.support.Payments.customer;
import static io.github.idempotency.sample.support.Payments.json;
import static io.github.idempotency.sample.support.Payments.newKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Retries of a payment that is still running, held in flight by a slow gateway: a conflict while
 * the lease holds, a takeover once it has run out (SPEC 4 and 6), on PostgreSQL.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "sample.gateway.latency=3s")
class InFlightPaymentTests extends PaymentsHttpTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@Test
	void answersConflictWithRetryAfterWhileSameKeyIsInProgress() throws Exception {
		String key = newKey();
		String request = body(customer("c-"), 2999, "USD");
		CompletableFuture<HttpResponse<byte[]>> first = this.http.post("/payments").key(key).json(request).sendAsync();
		await().atMost(TIMEOUT).until(() -> "IN_PROGRESS".equals(this.db.recordStatus(key)));
		HttpResponse<byte[]> duplicate = this.http.post("/payments").key(key).json(request).send();
		assertThat(first).isNotDone();
		assertThat(duplicate.statusCode()).isEqualTo(409);
		assertThat(duplicate.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(json(duplicate).get("type").asString()).isEqualTo("urn:problem-type:idempotency:in-progress");
		assertThat(duplicate.headers().firstValue("Retry-After")).hasValueSatisfying(
				(retryAfter) -> assertThat(Long.parseLong(retryAfter)).isPositive());
		HttpResponse<byte[]> original = first.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		assertThat(original.statusCode()).isEqualTo(201);
		assertThat(this.db.charges()).isOne();
		assertThat(this.db.onlyCharge()).containsEntry("attempts", 1);
		assertThat(this.db.payments()).isOne();
	}

	@Test
	void retryTakesOverExpiredLeaseAndStalledRequestLosesIt() throws Exception {
		String key = newKey();
		String request = body(customer("c-"), 2999, "USD");
		CompletableFuture<HttpResponse<byte[]>> stalled = this.http.post("/payments")
			.key(key)
			.json(request)
			.sendAsync();
		await().atMost(TIMEOUT).until(() -> "IN_PROGRESS".equals(this.db.recordStatus(key)) && this.db.payments() == 1);
		this.db.expireLease(key);
		HttpResponse<byte[]> retry = this.http.post("/payments").key(key).json(request).send();
		HttpResponse<byte[]> lost = stalled.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		assertThat(retry.statusCode()).isEqualTo(201);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(lost.statusCode()).isEqualTo(409);
		assertThat(lost.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(json(lost).get("type").asString()).isEqualTo("urn:problem-type:idempotency:lease-lost");
		Map<String, Object> record = this.db.record("default", key);
		assertThat(record).containsEntry("status", "COMPLETED").containsEntry("response_status", 201);
		assertThat((byte[]) record.get("response_body")).isEqualTo(retry.body());
		assertThat(this.db.charges()).isOne();
		Map<String, Object> charge = this.db.onlyCharge();
		assertThat(charge).containsEntry("status", "SUCCEEDED").containsEntry("attempts", 2);
		JsonNode payment = json(retry);
		assertThat(payment.get("gatewayChargeId").asString()).isEqualTo(charge.get("id"));
		assertThat(this.db.payments()).isOne();
		assertThat(this.db.onlyPayment()).containsEntry("id", payment.get("id").asLong())
			.containsEntry("status", "SUCCEEDED");
		HttpResponse<byte[]> replay = this.http.post("/payments").key(key).json(request).send();
		assertThat(replay.body()).isEqualTo(retry.body());
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
	}

}
