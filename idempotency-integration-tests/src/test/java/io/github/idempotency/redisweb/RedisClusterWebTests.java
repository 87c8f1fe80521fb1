package io.github.idempotency.redisweb;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.idempotency.redisweb.RedisWebApplication.Gate;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.RedisTestCluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of an application on one real Redis Cluster, hit by storms of identical requests
 * from real threads over real HTTP: one effect, and every answer the original, a byte-identical
 * replay, or a 409.
 */
class RedisClusterWebTests {

	private static final int REQUESTS = 64;

	private static final List<ConfigurableApplicationContext> instances = new ArrayList<>();

	@BeforeAll
	static void startTwoInstances() {
		String prefix = "clusterweb-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		String nodes = String.join(",", RedisTestCluster.get().nodes());
		for (int i = 0; i < 2; i++) {
			instances.add(new SpringApplicationBuilder(RedisWebApplication.class)
				.properties("server.port=0", "idempotency.store.type=redis", "idempotency.redis.key-prefix=" + prefix,
						"spring.data.redis.cluster.nodes=" + nodes, "server.tomcat.threads.max=" + REQUESTS)
				.run());
		}
	}

	@AfterAll
	static void stopInstances() {
		instances.forEach(ConfigurableApplicationContext::close);
	}

	@AfterEach
	void openGates() {
		instances.forEach((instance) -> instance.getBean(Gate.class).open());
	}

	/**
	 * The first request to arrive is held until every duplicate has been answered, so that each
	 * duplicate meets it in progress: 63 conflicts, wherever they land, and one execution.
	 */
	@Test
	void sixtyFourIdenticalRequestsOverTwoInstancesWhileTheFirstRunsHaveOneEffect() throws Exception {
		String value = UUID.randomUUID().toString();
		instances.forEach((instance) -> instance.getBean(Gate.class).close());
		AtomicInteger answered = new AtomicInteger();
		List<CompletableFuture<HttpResponse<byte[]>>> responses = new ArrayList<>();
		for (int i = 0; i < REQUESTS; i++) {
			responses.add(http(i).post("/payments").key(value).json(body(value)).sendAsync().whenComplete(
					(response, failure) -> answered.incrementAndGet()));
		}
		await().atMost(Duration.ofSeconds(60)).until(() -> entered() == 1 && answered.get() == REQUESTS - 1);
		instances.forEach((instance) -> instance.getBean(Gate.class).open());
		List<Integer> statuses = new ArrayList<>();
		for (CompletableFuture<HttpResponse<byte[]>> response : responses) {
			statuses.add(response.get(60, TimeUnit.SECONDS).statusCode());
		}
		assertThat(statuses).filteredOn((status) -> status == 201).hasSize(1);
		assertThat(statuses).filteredOn((status) -> status == 409).hasSize(REQUESTS - 1);
		assertThat(effects(value)).isEqualTo(1);
		HttpResponse<byte[]> original = responses.stream()
			.map(CompletableFuture::join)
			.filter((response) -> response.statusCode() == 201)
			.findFirst()
			.orElseThrow();
		for (int i = 0; i < 2; i++) {
			HttpResponse<byte[]> retry = http(i).post("/payments").key(value).json(body(value)).send();
			assertThat(retry.body()).isEqualTo(original.body());
			assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		}
	}

	/**
	 * Real threads race unhindered, over both instances, on many keys in turn.
	 */
	@Test
	void stormsOfIdenticalRequestsOnManyKeysEachHaveOneEffectAndOneResponse() throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(32);
		try {
			for (int round = 0; round < 10; round++) {
				String value = UUID.randomUUID().toString();
				CountDownLatch start = new CountDownLatch(1);
				List<Future<HttpResponse<byte[]>>> responses = new ArrayList<>();
				for (int i = 0; i < 32; i++) {
					Http http = http(i);
					responses.add(threads.submit(() -> {
						start.await();
						return http.post("/payments").key(value).json(body(value)).send();
					}));
				}
				start.countDown();
				List<HttpResponse<byte[]>> answers = new ArrayList<>();
				for (Future<HttpResponse<byte[]>> response : responses) {
					answers.add(response.get(60, TimeUnit.SECONDS));
				}
				List<HttpResponse<byte[]>> successes = answers.stream().filter((a) -> a.statusCode() == 201).toList();
				assertThat(answers).allSatisfy((answer) -> assertThat(answer.statusCode()).isIn(201, 409));
				assertThat(successes).isNotEmpty();
				assertThat(successes.stream().map((a) -> new String(a.body())).distinct()).hasSize(1);
				assertThat(successes.stream().filter((a) -> a.headers().firstValue("Idempotent-Replayed").isEmpty()))
					.hasSize(1);
				assertThat(effects(value)).isEqualTo(1);
			}
		}
		finally {
			threads.shutdownNow();
		}
	}

	private static int entered() {
		return instances.stream().mapToInt((instance) -> instance.getBean(Gate.class).entered()).sum();
	}

	private static long effects(String value) {
		String effects = instances.get(0)
			.getBean(StringRedisTemplate.class)
			.opsForValue()
			.get(RedisWebApplication.effectsKey(value));
		return (effects != null) ? Long.parseLong(effects) : 0;
	}

	private static Http http(int request) {
		return new Http(((WebServerApplicationContext) instances.get(request % 2)).getWebServer().getPort());
	}

	private static String body(String value) {
		return "{\"value\":\"" + value + "\"}";
	}

}
