package io.github.idempotency.sample;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.jdbc.JdbcIdempotencyStore;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.testsupport.Http;

import static io.github.idempotency.sample.support.Payments.body;
import static io.github.idempotency.sample.support.Payments.customer;
import static io.github.idempotency.sample.support.Payments.json;
import static io.github.idempotency.sample.support.Payments.newKey;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Outside the {@code redis} profile the application keeps its idempotency records in its
 * database, and with no Redis to reach it starts, stays healthy and takes payments, although
 * Spring Data Redis is on its classpath.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.data.redis.host=127.0.0.1", "spring.data.redis.port=1" })
class DefaultProfileWithoutRedisTests {

	@LocalServerPort
	int port;

	@Autowired
	IdempotencyStore store;

	@Test
	void keepsTheRecordsInTheDatabaseAndStaysHealthyWithoutRedis() {
		assertThat(this.store).isInstanceOf(JdbcIdempotencyStore.class);
		Http http = new Http(this.port);
		HttpResponse<byte[]> payment = http.post("/payments").key(newKey()).json(body(customer("c-"), 2999, "USD")).send();
		assertThat(payment.statusCode()).isEqualTo(201);
		JsonNode health = json(http.get("/actuator/health").send());
		assertThat(health.get("status").asString()).isEqualTo("UP");
		assertThat(health.get("components").has("redis")).isFalse();
	}

}
