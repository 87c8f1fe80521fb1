package io.github.idempotency.sample.support;

import java.net.http.HttpResponse;
import java.util.UUID;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Request bodies and response parsing for the payments API.
 */
public final class Payments {

	private Payments() {
	}

	/**
	 * Return a JSON payment request.
	 * @param customerId the customer
	 * @param amount the amount in minor units
	 * @param currency the currency code
	 * @return the JSON
	 */
	public static String body(String customerId, long amount, String currency) {
		return "{\"customerId\":\"" + customerId + "\",\"amount\":" + amount + ",\"currency\":\"" + currency + "\"}";
	}

	/**
	 * Return a new random idempotency key.
	 * @return the key
	 */
	public static String newKey() {
		return UUID.randomUUID().toString();
	}

	/**
	 * Return a new customer id with the given prefix.
	 * @param prefix the prefix, such as {@code decline-}
	 * @return the customer id
	 */
	public static String customer(String prefix) {
		return prefix + UUID.randomUUID().toString().substring(0, 8);
	}

	public static JsonNode json(HttpResponse<byte[]> response) {
		return JsonMapper.shared().readTree(response.body());
	}

	public static JsonNode json(String text) {
		return JsonMapper.shared().readTree(text);
	}

}
