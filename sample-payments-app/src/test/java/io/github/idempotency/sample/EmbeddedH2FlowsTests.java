package io.github.idempotency.sample;

import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.support.GatewayWebhooks;
import io.github.idempotency.sample.support.Rest;
import io.github.idempotency.sample.support.ShopWebhooks;
import io.github.idempotency.testsupport.Http;

import static io.github.idempotency.sample.support.Payments.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The session, session cart, intent mandate, sync, agent task and gateway webhook flows run on the
 * embedded H2 default too: their SQL, their locking and their keys, once each; the PostgreSQL tests
 * cover them in full.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class EmbeddedH2FlowsTests {

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	@Test
	void sessionsEndAndStartAgainOnH2() {
		Http http = new Http(this.port);
		String login = "{\"userId\":\"h2-user\",\"deviceId\":\"phone\"}";
		HttpResponse<byte[]> first = http.post("/sessions").json(login).send();
		HttpResponse<byte[]> replay = http.post("/sessions").json(login).send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(new Rest(this.port).delete("/sessions/" + json(first).get("id").asString()).statusCode())
			.isEqualTo(204);
		JsonNode next = json(http.post("/sessions").json(login).send());
		assertThat(next.get("number").asInt()).isEqualTo(2);
		assertThat(count("SELECT count(*) FROM user_session WHERE user_id = 'h2-user'")).isEqualTo(2);
	}

	@Test
	void sessionCartsApplyTheirUpdatesInIncreasingOrderOnH2() {
		Http http = new Http(this.port);
		HttpResponse<byte[]> login = http.post("/sessions")
			.json("{\"userId\":\"h2-cart\",\"deviceId\":\"phone\"}")
			.send();
		String session = json(login).get("id").asString();
		HttpResponse<byte[]> first = cartUpdate(http, session, 1, "A", 2);
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(cartUpdate(http, session, 3, "A", 5).statusCode()).isEqualTo(200);
		HttpResponse<byte[]> late = cartUpdate(http, session, 2, "B", 1);
		assertThat(late.statusCode()).isEqualTo(409);
		assertThat(json(late).get("type").asString()).isEqualTo("urn:problem-type:idempotency:stale-sequence");
		assertThat(cartUpdate(http, session, 1, "A", 2).body()).isEqualTo(first.body());
		JsonNode cart = json(http.get("/sessions/" + session + "/cart").send());
		assertThat(cart.get("sequence").asLong()).isEqualTo(3);
		assertThat(cart.get("items").toString()).isEqualTo("[{\"sku\":\"A\",\"quantity\":5}]");
		assertThat(count("SELECT count(*) FROM session_cart_update WHERE session_id = '" + session + "'"))
			.isEqualTo(2);
	}

	@Test
	void gatewayWebhooksMoveAChargeThroughItsStatesOnH2() {
		Http http = new Http(this.port);
		String transaction = json(http.post("/payments")
			.key("h2-gateway-payment")
			.json("{\"customerId\":\"h2-gateway\",\"amount\":2999,\"currency\":\"USD\"}")
			.send()).get("gatewayChargeId").asString();
		assertThat(gatewayEvent(http, "refund.processed", transaction).statusCode()).isEqualTo(409);
		assertThat(gatewayEvent(http, "payment.succeeded", transaction).statusCode()).isEqualTo(200);
		assertThat(gatewayEvent(http, "refund.processed", transaction).statusCode()).isEqualTo(200);
		HttpResponse<byte[]> invalid = gatewayEvent(http, "payment.failed", transaction);
		assertThat(invalid.statusCode()).isEqualTo(409);
		assertThat(gatewayEvent(http, "payment.failed", transaction).body()).isEqualTo(invalid.body());
		assertThat(json(http.get("/webhooks/gateway/payments/" + transaction).send()).get("state").asString())
			.isEqualTo("REFUNDED");
		assertThat(count("SELECT count(*) FROM gateway_payment_event WHERE transaction_id = '" + transaction + "'"))
			.isEqualTo(2);
	}

	@Test
	void intentMandatesAreGivenOncePerIntentOnH2() {
		Http http = new Http(this.port);
		Instant expiry = LocalDate.now(ZoneOffset.UTC).plusDays(10).atStartOfDay(ZoneOffset.UTC).toInstant();
		String expiresAt = expiry.toString();
		String intent = "{\"userId\":\"h2-user\",\"description\":\"Shoes\",\"merchants\":[\"b\",\"a\"],"
				+ "\"maxAmount\":9000,\"currency\":\"EUR\",\"expiresAt\":\"" + expiresAt + "\"}";
		HttpResponse<byte[]> first = http.post("/intent-mandates").json(intent).send();
		HttpResponse<byte[]> reordered = http.post("/intent-mandates")
			.json(intent.replace("[\"b\",\"a\"]", "[\"a\",\"b\"]"))
			.send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(reordered.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(count("SELECT count(*) FROM intent_mandate WHERE user_id = 'h2-user'")).isOne();
	}

	@Test
	void syncsAreVersionedOnH2() {
		Rest rest = new Rest(this.port);
		assertThat(rest.put("/sync/products/H2-1", product(0, 100)).statusCode()).isEqualTo(201);
		assertThat(json(rest.put("/sync/products/H2-1", product(1, 100))).get("version").asLong()).isEqualTo(2);
		HttpResponse<byte[]> stale = rest.put("/sync/products/H2-1", product(1, 200));
		assertThat(stale.statusCode()).isEqualTo(422);
		assertThat(json(rest.put("/sync/users/h2-user",
				"{\"baseVersion\":0,\"email\":\"h2@example.com\",\"consents\":{\"marketing\":true}}"))
			.get("consents")
			.get("marketing")
			.asBoolean()).isTrue();
		assertThat(rest.put("/sync/users/h2-user",
				"{\"baseVersion\":1,\"email\":\"h2@example.com\",\"consents\":{\"marketing\":false}}")
			.statusCode()).isEqualTo(200);
		assertThat(count("SELECT count(*) FROM user_consent_history WHERE user_id = 'h2-user'")).isEqualTo(2);
		assertThat(count("SELECT version FROM product WHERE id = 'H2-1'")).isEqualTo(2);
	}

	@Test
	void agentTasksRunAgainAfterATransientFailureOnH2() {
		Http http = new Http(this.port);
		String task = "{\"taskId\":\"h2-task\",\"skill\":\"quote\",\"input\":{\"sku\":\"A\",\"quantity\":1,"
				+ "\"unitPrice\":5,\"transientFailures\":1}}";
		assertThat(http.post("/agent-tasks").json(task).send().statusCode()).isEqualTo(503);
		HttpResponse<byte[]> completed = http.post("/agent-tasks").json(task).send();
		assertThat(completed.statusCode()).isEqualTo(200);
		assertThat(http.post("/agent-tasks").json(task).send().body()).isEqualTo(completed.body());
		assertThat(count("SELECT count(*) FROM agent_task_attempt WHERE task_id = 'h2-task'")).isEqualTo(2);
	}

	private static HttpResponse<byte[]> cartUpdate(Http http, String session, long sequence, String sku,
			int quantity) {
		return http.patch("/sessions/" + session + "/cart")
			.json("{\"sequence\":" + sequence + ",\"changes\":[{\"sku\":\"" + sku + "\",\"quantity\":" + quantity
					+ "}]}")
			.send();
	}

	private static HttpResponse<byte[]> gatewayEvent(Http http, String type, String transaction) {
		String body = GatewayWebhooks.body(type, transaction);
		return GatewayWebhooks.send(http, body, ShopWebhooks.sign(body, GatewayWebhooks.SECRET));
	}

	private static String product(long baseVersion, long price) {
		return "{\"baseVersion\":" + baseVersion + ",\"name\":\"Mug\",\"price\":" + price + ",\"currency\":\"EUR\"}";
	}

	private long count(String sql) {
		Long count = this.jdbc.queryForObject(sql, Long.class);
		return (count != null) ? count : 0;
	}

}
