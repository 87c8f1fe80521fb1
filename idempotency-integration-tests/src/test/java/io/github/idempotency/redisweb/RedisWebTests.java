package io.github.idempotency.redisweb;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.KeyHashes;
import io.github.idempotency.redis.RedisIdempotencyStore;
import io.github.idempotency.redisweb.RedisWebApplication.Gate;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.ReferencingIdempotencyStore;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

/**
 * The HTTP contract on the Redis store, end to end: a real server, real HTTP, records in the
 * standalone Redis on 127.0.0.1:6379, and a second instance of the application on the same Redis.
 */
@SpringBootTest(classes = RedisWebApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "idempotency.store.type=redis", "management.endpoints.web.exposure.include=health,idempotency",
				"management.endpoint.health.show-components=always" })
class RedisWebTests {

	static final String PREFIX = RedisTestServer.local().uniquePrefix("redisweb");

	private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

	private static final JsonMapper json = JsonMapper.builder().build();

	static ConfigurableApplicationContext second;

	@LocalServerPort
	int port;

	@Autowired
	Gate gate;

	@Autowired
	IdempotencyStore store;

	@Autowired
	StringRedisTemplate redis;

	@DynamicPropertySource
	static void keyPrefix(DynamicPropertyRegistry registry) {
		registry.add("idempotency.redis.key-prefix", () -> PREFIX);
	}

	@BeforeAll
	static void startSecondInstance() {
		second = new SpringApplicationBuilder(RedisWebApplication.class)
			.properties("server.port=0", "idempotency.store.type=redis", "idempotency.redis.key-prefix=" + PREFIX)
			.run();
	}

	@AfterAll
	static void stopSecondInstanceAndCleanUp() {
		second.close();
		RedisTestServer.local().deleteKeys(PREFIX);
		RedisTestServer.local().deleteKeys(RedisWebApplication.effectsKey(RUN).replace("}", ""));
	}

	@AfterEach
	void openGate() {
		this.gate.open();
		second.getBean(Gate.class).open();
	}

	@Test
	void theRecordsAreInRedis() {
		assertThat(this.store).isInstanceOf(RedisIdempotencyStore.class);
	}

	@Test
	void aRetryReplaysTheFirstResponseByteForByteAndRunsNothing() {
		String value = unique();
		HttpResponse<byte[]> first = http().post("/payments").key(value).json(body(value)).send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
		HttpResponse<byte[]> retry = http().post("/payments").key(value).json(body(value)).send();
		assertThat(retry.statusCode()).isEqualTo(201);
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(retry.headers().firstValue("Location")).isEqualTo(first.headers().firstValue("Location"));
		assertThat(retry.headers().firstValue("Content-Type")).isEqualTo(first.headers().firstValue("Content-Type"));
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(effects(value)).isEqualTo(1);
	}

	@Test
	void aDuplicateOfARequestInProgressIsAConflictWithRetryAfter() throws Exception {
		String value = unique();
		this.gate.close();
		CompletableFuture<HttpResponse<byte[]>> first = http().post("/payments").key(value).json(body(value))
			.sendAsync();
		await().atMost(Duration.ofSeconds(20)).until(() -> this.gate.entered() == 1);
		HttpResponse<byte[]> duplicate = http().post("/payments").key(value).json(body(value)).send();
		assertThat(duplicate.statusCode()).isEqualTo(409);
		assertThat(duplicate.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(duplicate.headers().firstValue("Retry-After")).isPresent();
		this.gate.open();
		assertThat(first.get().statusCode()).isEqualTo(201);
		HttpResponse<byte[]> retry = http().post("/payments").key(value).json(body(value)).send();
		assertThat(retry.body()).isEqualTo(first.get().body());
		assertThat(effects(value)).isEqualTo(1);
	}

	@Test
	void anotherBodyUnderTheSameKeyIsRefusedWith422AndNeverSeesTheStoredResponse() {
		String value = unique();
		HttpResponse<byte[]> first = http().post("/payments").key(value).json(body(value)).send();
		HttpResponse<byte[]> other = http().post("/payments").key(value).json(body(value + "-changed")).send();
		assertThat(other.statusCode()).isEqualTo(422);
		assertThat(other.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(Http.text(other)).doesNotContain(Http.text(first));
		assertThat(effects(value)).isEqualTo(1);
		assertThat(effects(value + "-changed")).isZero();
	}

	@Test
	void aSecondInstanceReplaysTheFirstInstancesResponseAndRefusesItsRequestInProgress() throws Exception {
		Http secondHttp = new Http(((WebServerApplicationContext) second).getWebServer().getPort());
		String value = unique();
		HttpResponse<byte[]> first = http().post("/payments").key(value).json(body(value)).send();
		HttpResponse<byte[]> elsewhere = secondHttp.post("/payments").key(value).json(body(value)).send();
		assertThat(elsewhere.statusCode()).isEqualTo(201);
		assertThat(elsewhere.body()).isEqualTo(first.body());
		assertThat(elsewhere.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		String running = unique();
		this.gate.close();
		CompletableFuture<HttpResponse<byte[]>> inProgress = http().post("/payments").key(running)
			.json(body(running))
			.sendAsync();
		await().atMost(Duration.ofSeconds(20)).until(() -> this.gate.entered() == 1);
		assertThat(secondHttp.post("/payments").key(running).json(body(running)).send().statusCode()).isEqualTo(409);
		this.gate.open();
		assertThat(inProgress.get().statusCode()).isEqualTo(201);
		assertThat(secondHttp.post("/payments").key(running).json(body(running)).send().body())
			.isEqualTo(inProgress.get().body());
		assertThat(effects(value)).isEqualTo(1);
		assertThat(effects(running)).isEqualTo(1);
	}

	@Test
	void theActuatorEndpointCountsAndDescribesRecordsAndTheHealthPingsRedis() {
		String value = unique();
		http().post("/payments").key(value).tenant("acme").json(body(value)).send();
		JsonNode counts = json.readTree(Http.text(http().get("/actuator/idempotency").send()));
		assertThat(counts.path("operations").path("POST /payments").path("completed").asLong()).isPositive();
		HttpResponse<byte[]> record = http()
			.get("/actuator/idempotency?tenant=acme&operation=POST%20/payments&key=" + value)
			.send();
		assertThat(record.statusCode()).isEqualTo(200);
		JsonNode described = json.readTree(Http.text(record));
		assertThat(described.path("status").asString()).isEqualTo("COMPLETED");
		assertThat(described.path("responseStatus").asInt()).isEqualTo(201);
		JsonNode health = json.readTree(Http.text(http().get("/actuator/health").send()));
		assertThat(health.path("components").path("idempotency").path("status").asString()).isEqualTo("UP");
	}

	@Test
	void attemptsAreCountedAcrossThreeTransientFailuresAndASuccess() {
		String value = unique();
		String body = "{\"value\":\"" + value + "\",\"failures\":3}";
		IdempotencyKey key = new IdempotencyKey("default", "flaky", value);
		for (int failure = 1; failure <= 3; failure++) {
			assertThat(http().post("/flaky").key(value).json(body).send().statusCode()).isEqualTo(503);
			IdempotencyRecord released = this.store.find(key).orElseThrow();
			assertThat(released.status()).isEqualTo(RecordStatus.RELEASED);
			assertThat(released.attempts()).isEqualTo(failure);
			assertThat(released.lastFailure()).isEqualTo("status 503");
			assertThat(released.response()).isNull();
		}
		HttpResponse<byte[]> created = http().post("/flaky").key(value).json(body).send();
		assertThat(created.statusCode()).isEqualTo(201);
		HttpResponse<byte[]> replay = http().post("/flaky").key(value).json(body).send();
		assertThat(replay.body()).isEqualTo(created.body());
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(effects(value)).isEqualTo(4);
		IdempotencyRecord completed = this.store.find(key).orElseThrow();
		assertThat(completed.isCompleted()).isTrue();
		assertThat(completed.attempts()).isEqualTo(4);
		assertThat(completed.lastFailure()).isEqualTo("status 503");
		JsonNode counts = json.readTree(Http.text(http().get("/actuator/idempotency?operation=flaky").send()));
		List<JsonNode> listed = counts.path("repeatedFailures")
			.valueStream()
			.filter((failure) -> KeyHashes.shortHash(value).equals(failure.path("keyHash").asString()))
			.toList();
		assertThat(listed).singleElement().satisfies((failure) -> {
			assertThat(failure.path("attempts").asInt()).isEqualTo(4);
			assertThat(failure.path("lastFailure").asString()).isEqualTo("status 503");
			assertThat(failure.path("status").asString()).isEqualTo("COMPLETED");
			assertThat(failure.toString()).doesNotContain(value);
		});
	}

	@Test
	void aGatewayTransactionLeadsToItsKeyAndTheKeyShowsIt() {
		String value = unique();
		HttpResponse<byte[]> charged = http().post("/charges").key(value).json(body(value)).send();
		assertThat(charged.statusCode()).isEqualTo(201);
		String transaction = json.readTree(Http.text(charged)).path("transaction").asString();
		assertThat(((ReferencingIdempotencyStore) this.store).references(new IdempotencyKey("default", "charges", value)))
			.containsExactly(entry("gateway_transaction", List.of(transaction)));
		HttpResponse<byte[]> search = http()
			.get("/actuator/idempotency?reference=gateway_transaction&value=" + transaction)
			.send();
		assertThat(search.statusCode()).isEqualTo(200);
		assertThat(Http.text(search)).doesNotContain(value);
		assertThat(json.readTree(Http.text(search)).path("keys").values()).singleElement().satisfies((key) -> {
			assertThat(key.path("operation").asString()).isEqualTo("charges");
			assertThat(key.path("keyHash").asString()).isEqualTo(KeyHashes.shortHash(value));
			assertThat(key.path("status").asString()).isEqualTo("COMPLETED");
		});
		JsonNode described = json.readTree(Http.text(http()
			.get("/actuator/idempotency?tenant=default&operation=charges&key=" + value)
			.send()));
		assertThat(described.path("references").path("gateway_transaction").values()).extracting(JsonNode::asString)
			.containsExactly(transaction);
		HttpResponse<byte[]> replay = http().post("/charges").key(value).json(body(value)).send();
		assertThat(replay.body()).isEqualTo(charged.body());
	}

	private long effects(String value) {
		String effects = this.redis.opsForValue().get(RedisWebApplication.effectsKey(value));
		return (effects != null) ? Long.parseLong(effects) : 0;
	}

	private Http http() {
		return new Http(this.port);
	}

	private static String unique() {
		return RUN + "-" + UUID.randomUUID();
	}

	private static String body(String value) {
		return "{\"value\":\"" + value + "\"}";
	}

}
