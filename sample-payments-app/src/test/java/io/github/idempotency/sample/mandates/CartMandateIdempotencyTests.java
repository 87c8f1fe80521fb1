package io.github.idempotency.sample.mandates;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.support.PostgresFlowTest;

import static io.github.idempotency.sample.support.Carts.cart;
import static io.github.idempotency.sample.support.Carts.customer;
import static io.github.idempotency.sample.support.Carts.item;
import static io.github.idempotency.sample.support.Payments.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /cart-mandates} keys each mandate by its customer and cart hash, without an
 * {@code Idempotency-Key} header: the same cart gets the same mandate, another cart a new one.
 */
class CartMandateIdempotencyTests extends PostgresFlowTest {

	@Test
	void sameCartTwiceGetsTheSameMandateAsAReplay() {
		String request = cart(customer(), "USD", item("A-1", 2, 1999), item("B-2", 1, 500));
		HttpResponse<byte[]> first = this.http.post("/cart-mandates").json(request).send();
		HttpResponse<byte[]> again = this.http.post("/cart-mandates").json(request).send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(again.statusCode()).isEqualTo(201);
		assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(again.body()).isEqualTo(first.body());
		assertThat(again.headers().firstValue("Location")).isEqualTo(first.headers().firstValue("Location"));
		assertThat(this.db.mandates()).isOne();
	}

	@Test
	void sameCartWithItsItemsInAnotherOrderGetsTheSameMandate() {
		String customer = customer();
		HttpResponse<byte[]> first = this.http.post("/cart-mandates")
			.json(cart(customer, "USD", item("A-1", 2, 1999), item("B-2", 1, 500)))
			.send();
		HttpResponse<byte[]> reordered = this.http.post("/cart-mandates")
			.json(cart(customer, "USD", item("B-2", 1, 500), item("A-1", 2, 1999)))
			.send();
		assertThat(reordered.statusCode()).isEqualTo(201);
		assertThat(reordered.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(reordered.body()).isEqualTo(first.body());
		assertThat(this.db.mandates()).isOne();
	}

	@Test
	void differentCartOrCustomerGetsANewMandate() {
		String customer = customer();
		String cart = cart(customer, "USD", item("A-1", 2, 1999));
		JsonNode first = json(this.http.post("/cart-mandates").json(cart).send());
		JsonNode moreItems = json(this.http.post("/cart-mandates")
			.json(cart(customer, "USD", item("A-1", 3, 1999)))
			.send());
		JsonNode otherCurrency = json(this.http.post("/cart-mandates")
			.json(cart(customer, "EUR", item("A-1", 2, 1999)))
			.send());
		JsonNode otherCustomer = json(this.http.post("/cart-mandates")
			.json(cart(customer(), "USD", item("A-1", 2, 1999)))
			.send());
		assertThat(first.get("id").asString()).isNotEqualTo(moreItems.get("id").asString())
			.isNotEqualTo(otherCurrency.get("id").asString())
			.isNotEqualTo(otherCustomer.get("id").asString());
		assertThat(otherCustomer.get("cartHash").asString()).isEqualTo(first.get("cartHash").asString());
		assertThat(moreItems.get("cartHash").asString()).isNotEqualTo(first.get("cartHash").asString());
		assertThat(otherCurrency.get("cartHash").asString()).isNotEqualTo(first.get("cartHash").asString());
		assertThat(this.db.mandates()).isEqualTo(4);
	}

	@Test
	void mandateHoldsTheSortedCartItsTotalAndHashAndExpiresThirtyMinutesAfterCreation() throws Exception {
		String customer = customer();
		HttpResponse<byte[]> response = this.http.post("/cart-mandates")
			.json(cart(customer, "USD", item("B-2", 1, 500), item("A-1", 2, 1999)))
			.send();
		JsonNode mandate = json(response);
		String canonical = "{\"currency\":\"USD\",\"items\":[{\"sku\":\"A-1\",\"quantity\":2,\"unitPrice\":1999},"
				+ "{\"sku\":\"B-2\",\"quantity\":1,\"unitPrice\":500}]}";
		String hash = HexFormat.of()
			.formatHex(MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
		assertThat(mandate.get("id").asString()).startsWith("cm_");
		assertThat(response.headers().firstValue("Location")).hasValue("/cart-mandates/" + mandate.get("id").asString());
		assertThat(mandate.get("customerId").asString()).isEqualTo(customer);
		assertThat(mandate.get("currency").asString()).isEqualTo("USD");
		assertThat(mandate.get("items").get(0).get("sku").asString()).isEqualTo("A-1");
		assertThat(mandate.get("items").get(1).get("sku").asString()).isEqualTo("B-2");
		assertThat(mandate.get("total").asLong()).isEqualTo(2 * 1999 + 500);
		assertThat(mandate.get("cartHash").asString()).isEqualTo(hash);
		Instant createdAt = Instant.parse(mandate.get("createdAt").asString());
		Instant expiresAt = Instant.parse(mandate.get("expiresAt").asString());
		assertThat(Duration.between(createdAt, expiresAt)).isEqualTo(Duration.ofMinutes(30));
		assertThat(this.db.record("create-cart-mandate", "cart_mandate:" + customer + ":" + hash))
			.containsEntry("status", "COMPLETED");
		assertThat(json(this.http.get("/cart-mandates/" + mandate.get("id").asString()).send())).isEqualTo(mandate);
	}

}
