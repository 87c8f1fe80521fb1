package io.github.idempotency.sample;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.Environment;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.RedisTestCluster;
import io.github.idempotency.testsupport.RedisTestServer;

import static io.github.idempotency.sample.support.Payments.body;
import static io.github.idempotency.sample.support.Payments.customer;
import static io.github.idempotency.sample.support.Payments.json;
import static io.github.idempotency.sample.support.Payments.newKey;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code redis-cluster} profile brings the {@code redis} profile with it and puts the
 * idempotency records on a Redis Cluster, here this JVM's rather than the one of
 * {@code scripts/redis-cluster.sh} that it names.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("redis-cluster")
class RedisClusterProfileStartupTests {

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.cluster.nodes", () -> String.join(",", RedisTestCluster.get().nodes()));
		registry.add("idempotency.redis.key-prefix", () -> RedisTestServer.local().uniquePrefix("samplecluster"));
	}

	@LocalServerPort
	int port;

	@Autowired
	Environment environment;

	@Test
	void activatesTheRedisProfileAndServesPaymentsFromTheCluster() {
		assertThat(this.environment.getActiveProfiles()).contains("redis-cluster", "redis");
		Http http = new Http(this.port);
		JsonNode health = json(http.get("/actuator/health").send());
		assertThat(health.get("status").asString()).isEqualTo("UP");
		assertThat(health.get("components").get("idempotency").get("details").get("mode").asString())
			.isEqualTo("cluster");
		String key = newKey();
		String request = body(customer("c-"), 2999, "USD");
		HttpResponse<byte[]> first = http.post("/payments").key(key).json(request).send();
		HttpResponse<byte[]> replay = http.post("/payments").key(key).json(request).send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(first.body());
	}

}
