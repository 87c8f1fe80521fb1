package io.github.idempotency.sample.support;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.github.idempotency.testsupport.Http;

/**
 * Signs and sends shop webhooks as the shop does, with the sample's default secret.
 */
public final class ShopWebhooks {

	/**
	 * The value of {@code sample.webhooks.secret} in {@code application.yml}.
	 */
	public static final String SECRET = "shop-webhook-secret";

	private ShopWebhooks() {
	}

	/**
	 * Return a new event id.
	 * @return the event id
	 */
	public static String eventId() {
		return "evt-" + UUID.randomUUID();
	}

	/**
	 * Return a JSON webhook body.
	 * @param orderId the order the event is about
	 * @return the body
	 */
	public static String body(long orderId) {
		return "{\"order_id\":" + orderId + ",\"financial_status\":\"paid\"}";
	}

	/**
	 * Return the base64 HMAC-SHA256 of a body.
	 * @param body the body
	 * @param secret the key
	 * @return the {@code X-Shop-Hmac-Sha256} header value
	 */
	public static String sign(String body, String secret) {
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
			return Base64.getEncoder().encodeToString(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Deliver an event signed with the shop's secret.
	 * @param http the client
	 * @param eventId the event id
	 * @param body the body
	 * @return the response
	 */
	public static HttpResponse<byte[]> deliver(Http http, String eventId, String body) {
		return http.post("/webhooks/shop")
			.header("X-Shop-Event-Id", eventId)
			.header("X-Shop-Topic", "orders/paid")
			.header("X-Shop-Hmac-Sha256", sign(body, SECRET))
			.json(body)
			.send();
	}

}
