package io.github.idempotency.sample.support;

import java.net.http.HttpResponse;
import java.util.UUID;

import io.github.idempotency.testsupport.Http;

/**
 * Request bodies for the cart mandate and order APIs.
 */
public final class Carts {

	private Carts() {
	}

	/**
	 * Return a new customer id.
	 * @return the customer id
	 */
	public static String customer() {
		return "cust-" + UUID.randomUUID().toString().substring(0, 8);
	}

	/**
	 * Return a JSON cart.
	 * @param customerId the customer
	 * @param currency the currency code
	 * @param items the items, each as JSON such as {@link #item}
	 * @return the JSON body of {@code POST /cart-mandates}
	 */
	public static String cart(String customerId, String currency, String... items) {
		return "{\"customerId\":\"" + customerId + "\",\"currency\":\"" + currency + "\",\"items\":["
				+ String.join(",", items) + "]}";
	}

	/**
	 * Return a JSON cart item.
	 * @param sku the sku
	 * @param quantity the quantity
	 * @param unitPrice the unit price in minor units
	 * @return the JSON
	 */
	public static String item(String sku, long quantity, long unitPrice) {
		return "{\"sku\":\"" + sku + "\",\"quantity\":" + quantity + ",\"unitPrice\":" + unitPrice + "}";
	}

	/**
	 * Return a JSON order request.
	 * @param cartMandateId the mandate id
	 * @return the JSON body of {@code POST /orders}
	 */
	public static String order(String cartMandateId) {
		return "{\"cartMandateId\":\"" + cartMandateId + "\"}";
	}

	/**
	 * Create a mandate for a two-item cart of a new customer.
	 * @param http the client
	 * @return the id of the mandate
	 */
	public static String createMandate(Http http) {
		HttpResponse<byte[]> response = http.post("/cart-mandates")
			.json(cart(customer(), "EUR", item("SKU-1", 2, 1250), item("SKU-2", 1, 499)))
			.send();
		if (response.statusCode() != 201) {
			throw new AssertionError("Could not create a mandate: " + Http.text(response));
		}
		return Payments.json(response).get("id").asString();
	}

}
