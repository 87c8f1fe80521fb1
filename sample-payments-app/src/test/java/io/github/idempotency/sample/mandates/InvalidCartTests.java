package io.github.idempotency.sample.mandates;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.support.PostgresFlowTest;

import static io.github.idempotency.sample.support.Carts.cart;
import static io.github.idempotency.sample.support.Carts.customer;
import static io.github.idempotency.sample.support.Carts.item;
import static io.github.idempotency.sample.support.Payments.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An invalid cart is refused with a 400 problem from inside the idempotent method, so the
 * refusal is stored and replayed like any final answer, and no mandate is created.
 */
class InvalidCartTests extends PostgresFlowTest {

	@ParameterizedTest
	@ValueSource(strings = { "empty items", "zero quantity", "negative quantity", "negative price",
			"unknown currency", "repeated sku" })
	void invalidCartIsAStoredBadRequestThatIsReplayed(String problem) {
		String request = invalidCart(problem);
		HttpResponse<byte[]> first = this.http.post("/cart-mandates").json(request).send();
		HttpResponse<byte[]> again = this.http.post("/cart-mandates").json(request).send();
		assertThat(first.statusCode()).as(problem).isEqualTo(400);
		assertThat(first.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		JsonNode body = json(first);
		assertThat(body.get("type").asString()).isEqualTo("https://payments.example/problems/invalid-cart");
		assertThat(body.get("errors").isArray()).isTrue();
		assertThat(again.statusCode()).isEqualTo(400);
		assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(again.body()).isEqualTo(first.body());
		assertThat(this.db.records("create-cart-mandate")).isOne();
		assertThat(this.db.mandates()).isZero();
	}

	@Test
	void cartWithoutCustomerIsRefusedBeforeAnythingIsClaimed() {
		HttpResponse<byte[]> response = this.http.post("/cart-mandates")
			.json("{\"currency\":\"USD\",\"items\":[" + item("A-1", 1, 100) + "]}")
			.send();
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(json(response).get("detail").asString()).isEqualTo("customerId is required.");
		assertThat(this.db.records("create-cart-mandate")).isZero();
		assertThat(this.db.mandates()).isZero();
	}

	private static String invalidCart(String problem) {
		String customer = customer();
		return switch (problem) {
			case "empty items" -> cart(customer, "USD");
			case "zero quantity" -> cart(customer, "USD", item("A-1", 0, 100));
			case "negative quantity" -> cart(customer, "USD", item("A-1", -2, 100));
			case "negative price" -> cart(customer, "USD", item("A-1", 1, -100));
			case "unknown currency" -> cart(customer, "XYZ", item("A-1", 1, 100));
			case "repeated sku" -> cart(customer, "USD", item("A-1", 1, 100), item("A-1", 2, 100));
			default -> throw new IllegalArgumentException(problem);
		};
	}

}
