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
 * {@code POST /orders} places one order per cart mandate, keyed {@code order:{cartMandateId}}
 * without an {@code Idempotency-Key} header, and stores final refusals like answers.
 */
class OrderIdempotencyTests extends PostgresFlowTest {

	@Test
	void sameMandateTwiceGetsTheSameOrderAsAReplay() {
		String mandateId = createMandate(this.http);
		HttpResponse<byte[]> first = this.http.post("/orders").json(order(mandateId)).send();
		HttpResponse<byte[]> again = this.http.post("/orders").json(order(mandateId)).send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(again.statusCode()).isEqualTo(201);
		assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(again.body()).isEqualTo(first.body());
		assertThat(this.db.ordersOf(mandateId)).isOne();
		assertThat(this.db.record("place-order", "order:" + mandateId)).containsEntry("status", "COMPLETED")
			.containsEntry("response_status", 201);
	}

	@Test
	void orderCarriesTheMandateAndIsListedForItsCustomer() {
		String mandateId = createMandate(this.http);
		JsonNode mandate = json(this.http.get("/cart-mandates/" + mandateId).send());
		HttpResponse<byte[]> response = this.http.post("/orders").json(order(mandateId)).send();
		JsonNode placed = json(response);
		assertThat(response.headers().firstValue("Location")).hasValue("/orders/" + placed.get("id").asLong());
		assertThat(placed.get("cartMandateId").asString()).isEqualTo(mandateId);
		assertThat(placed.get("customerId").asString()).isEqualTo(mandate.get("customerId").asString());
		assertThat(placed.get("total").asLong()).isEqualTo(mandate.get("total").asLong());
		JsonNode listed = json(this.http.get("/orders?customerId=" + mandate.get("customerId").asString()).send());
		assertThat(listed.size()).isOne();
		assertThat(listed.get(0)).isEqualTo(placed);
		assertThat(json(this.http.get("/orders/" + placed.get("id").asLong()).send())).isEqualTo(placed);
	}

	@Test
	void differentMandatesGetDifferentOrders() {
		String first = createMandate(this.http);
		String second = createMandate(this.http);
		long firstOrder = json(this.http.post("/orders").json(order(first)).send()).get("id").asLong();
		long secondOrder = json(this.http.post("/orders").json(order(second)).send()).get("id").asLong();
		assertThat(firstOrder).isNotEqualTo(secondOrder);
		assertThat(this.db.orders()).isEqualTo(2);
	}

	@Test
	void unknownMandateIsAStoredNotFoundThatIsReplayed() {
		HttpResponse<byte[]> first = this.http.post("/orders").json(order("cm_unknown")).send();
		HttpResponse<byte[]> again = this.http.post("/orders").json(order("cm_unknown")).send();
		assertThat(first.statusCode()).isEqualTo(404);
		assertThat(json(first).get("type").asString())
			.isEqualTo("https://payments.example/problems/cart-mandate-not-found");
		assertThat(again.statusCode()).isEqualTo(404);
		assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(again.body()).isEqualTo(first.body());
		assertThat(this.db.record("place-order", "order:cm_unknown")).containsEntry("response_status", 404);
		assertThat(this.db.orders()).isZero();
	}

	@Test
	void requestWithoutMandateIsRefusedBeforeAnythingIsClaimed() {
		HttpResponse<byte[]> response = this.http.post("/orders").json("{}").send();
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(json(response).get("type").asString()).isEqualTo("https://payments.example/problems/invalid-order");
		assertThat(this.db.records("place-order")).isZero();
	}

}
