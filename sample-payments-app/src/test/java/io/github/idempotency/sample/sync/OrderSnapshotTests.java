package io.github.idempotency.sample.sync;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.support.PostgresFlowTest;
import io.github.idempotency.sample.support.Rest;

import static io.github.idempotency.sample.support.Carts.cart;
import static io.github.idempotency.sample.support.Carts.customer;
import static io.github.idempotency.sample.support.Carts.item;
import static io.github.idempotency.sample.support.Carts.order;
import static io.github.idempotency.sample.support.Payments.json;
import static io.github.idempotency.sample.sync.Syncs.newId;
import static io.github.idempotency.sample.sync.Syncs.product;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An order keeps the prices of its cart mandate: syncing a new price for a product it contains,
 * once and again, changes neither the order nor its mandate, over HTTP or in the database.
 */
class OrderSnapshotTests extends PostgresFlowTest {

	@Test
	void productSyncNeverChangesAnExistingOrder() {
		Rest rest = new Rest(this.port);
		String sku = newId("SKU-");
		rest.put("/sync/products/" + sku, product(0, "Mug", 1999));
		String mandateId = json(this.http.post("/cart-mandates")
			.json(cart(customer(), "EUR", item(sku, 2, 1999), item("OTHER-1", 1, 500)))
			.send()).get("id").asString();
		JsonNode order = json(this.http.post("/orders").json(order(mandateId)).send());
		JsonNode mandate = json(this.http.get("/cart-mandates/" + mandateId).send());
		List<Map<String, Object>> orderRows = orderRows(mandateId);
		List<Map<String, Object>> itemRows = itemRows(mandateId);
		assertThat(rest.put("/sync/products/" + sku, product(1, "Mug", 2999)).statusCode()).isEqualTo(200);
		assertThat(rest.put("/sync/products/" + sku, product(2, "Big mug", 3999)).statusCode()).isEqualTo(200);
		assertThat(json(this.http.get("/orders/" + order.get("id").asLong()).send())).isEqualTo(order);
		assertThat(json(this.http.get("/cart-mandates/" + mandateId).send())).isEqualTo(mandate);
		assertThat(order.get("total").asLong()).isEqualTo(2 * 1999 + 500);
		assertThat(orderRows(mandateId)).isEqualTo(orderRows);
		assertThat(itemRows(mandateId)).isEqualTo(itemRows)
			.anySatisfy((row) -> assertThat(row).containsEntry("sku", sku).containsEntry("unit_price", 1999L));
		assertThat(json(this.http.get("/sync/products/" + sku).send()).get("price").asLong()).isEqualTo(3999);
	}

	private List<Map<String, Object>> orderRows(String mandateId) {
		return this.db.rows("SELECT * FROM orders WHERE cart_mandate_id = ?", mandateId);
	}

	private List<Map<String, Object>> itemRows(String mandateId) {
		return this.db.rows("SELECT * FROM cart_mandate_item WHERE mandate_id = ? ORDER BY sku", mandateId);
	}

}
