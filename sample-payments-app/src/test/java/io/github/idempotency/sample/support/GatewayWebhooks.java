package io.github.idempotency.sample.support;

import java.net.http.HttpResponse;

import io.github.idempotency.testsupport.Http;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Charges payments and delivers the payment gateway's webhooks about them as the gateway does,
 * signed with the sample's default gateway secret.
 */
public final class GatewayWebhooks {

	/**
	 * The value of {@code sample.webhooks.gateway-secret} in {@code application.yml}.
	 */
	public static final String SECRET = "gateway-webhook-secret";

	public static final String SUCCEEDED = "payment.succeeded";

	public static final String FAILED = "payment.failed";

	public static final String REFUNDED = "refund.processed";

	private GatewayWebhooks() {
	}

	/**
	 * Pay, and return the gateway's transaction id of the accepted charge.
	 * @param http the client
	 * @return the transaction id
	 */
	public static String charge(Http http) {
		HttpResponse<byte[]> payment = http.post("/payments")
			.key(Payments.newKey())
			.json(Payments.body(Payments.customer("c-"), 2999, "USD"))
			.send();
		assertThat(payment.statusCode()).isEqualTo(201);
		return Payments.json(payment).get("gatewayChargeId").asString();
	}

	/**
	 * Return a JSON webhook body.
	 * @param type the event type
	 * @param transactionId the transaction the event is about
	 * @return the body
	 */
	public static String body(String type, String transactionId) {
		return "{\"type\":\"" + type + "\",\"transactionId\":\"" + transactionId + "\"}";
	}

	/**
	 * Return the key of an event.
	 * @param type the event type
	 * @param transactionId the transaction
	 * @return {@code webhook:fakepay:{transactionId}:{type}}
	 */
	public static String key(String type, String transactionId) {
		return "webhook:fakepay:" + transactionId + ":" + type;
	}

	/**
	 * Deliver an event signed with the gateway's secret.
	 * @param http the client
	 * @param type the event type
	 * @param transactionId the transaction the event is about
	 * @return the response
	 */
	public static HttpResponse<byte[]> deliver(Http http, String type, String transactionId) {
		return send(http, body(type, transactionId), ShopWebhooks.sign(body(type, transactionId), SECRET));
	}

	/**
	 * Send a body with a signature.
	 * @param http the client
	 * @param body the body
	 * @param signature the {@code X-Gateway-Signature} header, or {@code null} for none
	 * @return the response
	 */
	public static HttpResponse<byte[]> send(Http http, String body, String signature) {
		Http.Request request = http.post("/webhooks/gateway").json(body);
		if (signature != null) {
			request.header("X-Gateway-Signature", signature);
		}
		return request.send();
	}

}
