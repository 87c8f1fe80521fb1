package io.github.idempotency.sample.payments;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.sample.support.PaymentsHttpTest;

import static io.github.idempotency.sample.support.Payments.body;
import static io.github.idempotency.sample.support.Payments.customer;
import static io.github.idempotency.sample.support.Payments.json;
import static io.github.idempotency.sample.support.Payments.newKey;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Payments charged through an external gateway over HTTP ({@code sample.gateway.url}), here a
 * small real HTTP server that deduplicates charges by key and records every call it gets.
 */
class ExternalGatewayPaymentTests extends PaymentsHttpTest {

	private static final Gateway gateway = Gateway.start();

	@DynamicPropertySource
	static void externalGateway(DynamicPropertyRegistry registry) {
		registry.add("sample.gateway.url", () -> "http://127.0.0.1:" + gateway.port());
	}

	@AfterAll
	static void stopGateway() {
		gateway.stop();
	}

	@BeforeEach
	void forgetTheCalls() {
		gateway.calls.clear();
	}

	@Test
	void aPaymentIsChargedByTheExternalGatewayWithItsScopedKeyAndFencingToken() {
		String key = newKey();
		HttpResponse<byte[]> response = this.http.post("/payments").key(key).json(body(customer("c-"), 2999, "EUR")).send();
		assertThat(response.statusCode()).isEqualTo(201);
		JsonNode payment = json(response);
		assertThat(gateway.calls).singleElement().satisfies((call) -> {
			assertThat(call.kind()).isEqualTo("charge");
			assertThat(call.key()).isEqualTo("default:create-payment:" + key);
			assertThat(UUID.fromString(call.token())).isNotNull();
			assertThat(payment.get("gatewayChargeId").asString()).isEqualTo(call.chargeId());
		});
		assertThat(this.db.charges()).as("the fake gateway's table").isZero();
		assertThat(this.db.onlyPayment()).containsEntry("status", "SUCCEEDED")
			.containsEntry("gateway_charge_id", payment.get("gatewayChargeId").asString());
	}

	@Test
	void anAsynchronousPaymentIsChargedFirstThenCapturedUnderOneTokenAndItsRetryIsReplayedWithoutAnotherCall() {
		String key = newKey();
		String body = body(customer("c-"), 1500, "EUR");
		HttpResponse<byte[]> first = this.http.post("/payments/async").key(key).json(body).send();
		HttpResponse<byte[]> retry = this.http.post("/payments/async").key(key).json(body).send();
		assertThat(first.statusCode()).isEqualTo(201);
		JsonNode payment = json(first);
		assertThat(first.headers().firstValue("Location")).hasValue("/payments/" + payment.get("id").asLong());
		assertThat(payment.get("status").asString()).isEqualTo("SUCCEEDED");
		assertThat(retry.statusCode()).isEqualTo(201);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(gateway.calls).extracting(Call::kind).containsExactly("charge", "capture");
		assertThat(gateway.calls).allSatisfy((call) -> {
			assertThat(call.key()).isEqualTo("default:create-payment-async:" + key);
			assertThat(UUID.fromString(call.token())).isNotNull();
			assertThat(payment.get("gatewayChargeId").asString()).isEqualTo(call.chargeId());
		});
		assertThat(gateway.calls.get(1).token()).isEqualTo(gateway.calls.get(0).token());
		assertThat(this.db.payments()).isOne();
		assertThat(this.db.record("default", key)).containsEntry("operation", "create-payment-async")
			.containsEntry("status", "COMPLETED");
	}

	@Test
	void aGatewayThatFailsIsATransientFailureAndTheRetryIsChargedOnce() {
		String key = newKey();
		String body = body(customer("c-"), 700, "EUR");
		gateway.failNext = true;
		HttpResponse<byte[]> failed = this.http.post("/payments/async").key(key).json(body).send();
		HttpResponse<byte[]> retry = this.http.post("/payments/async").key(key).json(body).send();
		assertThat(failed.statusCode()).isEqualTo(503);
		assertThat(json(failed).get("type").asString()).endsWith("/gateway-unavailable");
		assertThat(retry.statusCode()).isEqualTo(201);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(gateway.calls).extracting(Call::kind).containsExactly("charge", "charge", "capture");
		assertThat(gateway.calls).extracting(Call::key).containsOnly("default:create-payment-async:" + key);
		assertThat(gateway.calls.get(0).token()).isNotEqualTo(gateway.calls.get(1).token());
		assertThat(gateway.calls.get(2).token()).isEqualTo(gateway.calls.get(1).token());
		assertThat(this.db.payments()).isOne();
	}

	/**
	 * One call as the gateway got it: a charge, or the capture of one.
	 */
	record Call(String kind, String key, String token, String chargeId) {

	}

	/**
	 * A payment gateway on a random port: one charge per key, which can be captured, every call
	 * recorded; the call after {@code failNext} is set answers 500 and does nothing.
	 */
	static final class Gateway {

		private final HttpServer server;

		final List<Call> calls = new CopyOnWriteArrayList<>();

		private final Map<String, String> charges = new ConcurrentHashMap<>();

		volatile boolean failNext;

		private Gateway(HttpServer server) {
			this.server = server;
		}

		static Gateway start() {
			try {
				HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
				Gateway gateway = new Gateway(server);
				server.createContext("/charges", gateway::charge);
				server.start();
				return gateway;
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		}

		int port() {
			return this.server.getAddress().getPort();
		}

		void stop() {
			this.server.stop(0);
		}

		private void charge(HttpExchange exchange) throws IOException {
			try (exchange) {
				exchange.getRequestBody().readAllBytes();
				String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
				String token = exchange.getRequestHeaders().getFirst("Fencing-Token");
				String kind = exchange.getRequestURI().getPath().endsWith("/capture") ? "capture" : "charge";
				if (this.failNext) {
					this.failNext = false;
					this.calls.add(new Call(kind, key, token, null));
					exchange.sendResponseHeaders(500, -1);
					return;
				}
				String id = this.charges.computeIfAbsent(key, (k) -> "ch_" + UUID.randomUUID().toString().replace("-", ""));
				if (kind.equals("capture") && !exchange.getRequestURI().getPath().equals("/charges/" + id + "/capture")) {
					exchange.sendResponseHeaders(404, -1);
					return;
				}
				this.calls.add(new Call(kind, key, token, id));
				byte[] answer = ("{\"id\":\"" + id + "\",\"status\":\"SUCCEEDED\",\"attempts\":1}")
					.getBytes(StandardCharsets.UTF_8);
				exchange.getResponseHeaders().set("Content-Type", "application/json");
				exchange.sendResponseHeaders(200, answer.length);
				exchange.getResponseBody().write(answer);
			}
		}

	}

}
