package io.github.idempotency.sample;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.redis.RedisIdempotencyStore;
import io.github.idempotency.sample.support.Carts;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.RedisTestServer;

import static io.github.idempotency.sample.support.Payments.body;
import static io.github.idempotency.sample.support.Payments.customer;
import static io.github.idempotency.sample.support.Payments.json;
import static io.github.idempotency.sample.support.Payments.newKey;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * With its {@code redis} profile the application starts with its idempotency records in Redis
 * and its business data on its database, reports both healthy, and serves payments and orders,
 * the ATOMIC orders made LEASED by the profile, with their records in Redis.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("redis")
class RedisProfileStartupTests {

	static final RedisTestServer redis = RedisTestServer.local();

	static final String PREFIX = redis.uniquePrefix("sampleredis");

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", redis::host);
		registry.add("spring.data.redis.port", redis::port);
		registry.add("idempotency.redis.key-prefix", () -> PREFIX);
	}

	@AfterAll
	static void deleteRecords() {
		redis.deleteKeys(PREFIX);
	}

	@LocalServerPort
	int port;

	@Autowired
	IdempotencyStore store;

	@Autowired
	JdbcTemplate jdbc;

	@Test
	void keepsTheRecordsInRedisAndReportsRedisAndTheDatabaseHealthy() {
		assertThat(this.store).isInstanceOf(RedisIdempotencyStore.class);
		JsonNode health = json(new Http(this.port).get("/actuator/health").send());
		assertThat(health.get("status").asString()).isEqualTo("UP");
		JsonNode components = health.get("components");
		assertThat(components.get("idempotency").get("details").get("store").asString()).isEqualTo("redis");
		assertThat(components.get("idempotency").get("details").get("mode").asString()).isEqualTo("standalone");
		assertThat(components.get("redis").get("status").asString()).isEqualTo("UP");
		assertThat(components.get("db").get("status").asString()).isEqualTo("UP");
	}

	@Test
	void paysOnceAndReplaysFromTheRecordInRedis() {
		Http http = new Http(this.port);
		String key = newKey();
		String request = body(customer("c-"), 2999, "USD");
		HttpResponse<byte[]> first = http.post("/payments").key(key).json(request).send();
		HttpResponse<byte[]> replay = http.post("/payments").key(key).json(request).send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(this.jdbc.queryForObject("SELECT count(*) FROM gateway_charge WHERE idempotency_key = ?", Long.class,
				"default:create-payment:" + key)).isOne();
		String record = PREFIX + "{default:create-payment:" + key + "}";
		assertThat(redis.command("HGET", record, "status")).isEqualTo("COMPLETED");
		assertThat(redis.command("HGET", record, "response_body")).isEqualTo(Http.text(first));
	}

	@Test
	void placesOneOrderPerMandateInLeasedModeWithItsRecordInRedis() {
		Http http = new Http(this.port);
		String mandate = Carts.createMandate(http);
		String request = Carts.order(mandate);
		HttpResponse<byte[]> order = http.post("/orders").json(request).send();
		HttpResponse<byte[]> replay = http.post("/orders").json(request).send();
		assertThat(order.statusCode()).isEqualTo(201);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(order.body());
		assertThat(this.jdbc.queryForObject("SELECT count(*) FROM orders WHERE cart_mandate_id = ?", Long.class,
				mandate)).isOne();
		assertThat(redis.command("HGET", PREFIX + "{default:place-order:order%3A" + mandate + "}", "status"))
			.isEqualTo("COMPLETED");
	}

}
