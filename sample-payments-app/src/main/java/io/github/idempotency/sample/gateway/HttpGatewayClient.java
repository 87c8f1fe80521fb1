package io.github.idempotency.sample.gateway;

import java.net.http.HttpClient;

import org.springframework.http.MediaType;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

import io.github.idempotency.IdempotencyContext;

/**
 * Charges through an external payment gateway over HTTP: {@code POST <url>/charges} with the
 * request as JSON, the gateway's idempotency key in {@code Idempotency-Key} and the fencing token
 * of the running idempotent operation in {@code Fencing-Token}; the gateway answers with the
 * charge it holds for the key, new or earlier. {@code POST <url>/charges/<id>/capture}, with the
 * same headers, captures it.
 */
class HttpGatewayClient {

	static final String KEY_HEADER = "Idempotency-Key";

	static final String TOKEN_HEADER = "Fencing-Token";

	private final RestClient rest;

	HttpGatewayClient(GatewayProperties properties) {
		HttpClient http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(properties.connectTimeout())
			.build();
		JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(http);
		factory.setReadTimeout(properties.readTimeout());
		this.rest = RestClient.builder().baseUrl(properties.url().toString()).requestFactory(factory).build();
	}

	/**
	 * Charge once per idempotency key, first making sure that the running operation still holds
	 * its key: the charge cannot be undone.
	 * @param request the charge request
	 * @return the charge the gateway holds for the request's key
	 * @throws GatewayUnavailableException if the gateway could not be reached or failed
	 */
	GatewayCharge charge(ChargeRequest request) {
		IdempotencyContext context = IdempotencyContext.current();
		if (context != null) {
			context.checkLease();
		}
		try {
			GatewayCharge charge = this.rest.post()
				.uri("/charges")
				.header(KEY_HEADER, request.idempotencyKey())
				.headers((headers) -> {
					if (context != null) {
						headers.set(TOKEN_HEADER, context.fencingToken().toString());
					}
				})
				.contentType(MediaType.APPLICATION_JSON)
				.body(new Charge(request.customerId(), request.amount(), request.currency()))
				.retrieve()
				.body(GatewayCharge.class);
			if (charge == null) {
				throw new GatewayUnavailableException("The payment gateway answered without a charge.");
			}
			return charge;
		}
		catch (RestClientException ex) {
			throw new GatewayUnavailableException("The payment gateway could not be reached or failed ("
					+ ex.getClass().getSimpleName() + "); a retry finds the charge if one was made.");
		}
	}

	/**
	 * Capture a charge the gateway made for a key, first making sure that the running operation
	 * still holds its key.
	 * @param request the request the charge was made for
	 * @param charge the charge
	 * @return the charge, captured
	 * @throws GatewayUnavailableException if the gateway could not be reached or failed
	 */
	GatewayCharge capture(ChargeRequest request, GatewayCharge charge) {
		IdempotencyContext context = IdempotencyContext.current();
		if (context != null) {
			context.checkLease();
		}
		try {
			GatewayCharge captured = this.rest.post()
				.uri("/charges/{id}/capture", charge.id())
				.header(KEY_HEADER, request.idempotencyKey())
				.headers((headers) -> {
					if (context != null) {
						headers.set(TOKEN_HEADER, context.fencingToken().toString());
					}
				})
				.retrieve()
				.body(GatewayCharge.class);
			if (captured == null) {
				throw new GatewayUnavailableException("The payment gateway answered without the charge.");
			}
			return captured;
		}
		catch (RestClientException ex) {
			throw new GatewayUnavailableException("The payment gateway could not capture the charge ("
					+ ex.getClass().getSimpleName() + "); a retry captures it.");
		}
	}

	/**
	 * The body of a charge call.
	 *
	 * @param customerId the customer to charge
	 * @param amount the amount in minor units
	 * @param currency the ISO 4217 currency code
	 */
	record Charge(String customerId, long amount, String currency) {

	}

}
