package io.github.idempotency.sample.orders;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.support.PostgresFlowTest;

import static io.github.idempotency.sample.support.Carts.createMandate;
import static io.github.idempotency.sample.support.Carts.order;
import static io.github.idempotency.sample.support.Payments.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An order from an expired mandate is refused with a final 422 problem that is stored: its
 * retries get the same refusal, even once the mandate is valid again, and no order is placed.
 */
class ExpiredMandateOrderTests extends PostgresFlowTest {

	@Test
	void expiredMandateGetsAStoredUnprocessableProblemThatIsReplayed() {
		String mandateId = createMandate(this.http);
		this.db.expireMandate(mandateId);
		HttpResponse<byte[]> first = this.http.post("/orders").json(order(mandateId)).send();
		assertThat(first.statusCode()).isEqualTo(422);
		assertThat(first.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		JsonNode problem = json(first);
		assertThat(problem.get("type").asString()).isEqualTo("https://payments.example/problems/cart-mandate-expired");
		assertThat(problem.get("cartMandateId").asString()).isEqualTo(mandateId);
		this.db.renewMandate(mandateId);
		HttpResponse<byte[]> retry = this.http.post("/orders").json(order(mandateId)).send();
		assertThat(retry.statusCode()).isEqualTo(422);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(this.db.record("place-order", "order:" + mandateId)).containsEntry("status", "COMPLETED")
			.containsEntry("response_status", 422);
		assertThat(this.db.orders()).isZero();
	}

}
