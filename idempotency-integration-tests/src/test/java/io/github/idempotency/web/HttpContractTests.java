package io.github.idempotency.web;

import java.net.http.HttpResponse;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.web.servlet.WebTestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP contract of SPEC 4 and the outcome rules of SPEC 5 for LEASED operations, over real
 * HTTP, counting effects in PostgreSQL: one suite, which each web stack's application passes with
 * the same endpoints, on each store.
 */
public abstract class HttpContractTests {

	@LocalServerPort
	int port;

	@Autowired
	protected JdbcTemplate jdbc;

	@Autowired
	IdempotencyStore store;

	@Autowired
	WebTestApplication.Gate gate;

	protected Http http;

	@BeforeEach
	void setUp() {
		this.http = new Http(this.port);
	}

	@AfterEach
	void openGate() {
		this.gate.open();
	}

	@Test
	void replaysStoredResponseByteForByteWithAllowListedHeadersOnly() {
		String value = unique();
		HttpResponse<byte[]> first = this.http.post("/effects").key("k-" + value).json(json(value)).send();
		HttpResponse<byte[]> replay = this.http.post("/effects").key("k-" + value).json(json(value)).send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(first.headers().firstValue("Set-Cookie")).isPresent();
		assertThat(replay.statusCode()).isEqualTo(201);
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.headers().firstValue("Location")).isEqualTo(first.headers().firstValue("Location"));
		assertThat(replay.headers().firstValue("Content-Type")).isEqualTo(first.headers().firstValue("Content-Type"));
		assertThat(replay.headers().firstValue("X-Request-Trace"))
			.isEqualTo(first.headers().firstValue("X-Request-Trace"));
		assertThat(replay.headers().firstValue("Set-Cookie")).isEmpty();
		assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(effects("effects", value)).isEqualTo(1);
		assertThat(storedHeaders("POST /effects", "k-" + value)).doesNotContainIgnoringCase("set-cookie").contains("X-Request-Trace");
	}

	@Test
	void treatsReorderedFieldsAndWhitespaceAsTheSameRequest() {
		String value = unique();
		HttpResponse<byte[]> first = this.http.post("/effects")
			.key("k-" + value)
			.json("{\"value\":\"" + value + "\",\"extra\":1.0}")
			.send();
		HttpResponse<byte[]> replay = this.http.post("/effects")
			.key("k-" + value)
			.json("{ \"extra\" : 1,\n  \"value\" : \"" + value + "\" }")
			.send();
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(effects("effects", value)).isEqualTo(1);
	}

	@Test
	void answersConflictWithRetryAfterWhileTheFirstRequestIsInProgress() throws Exception {
		String value = unique();
		this.gate.close();
		CompletableFuture<HttpResponse<byte[]>> first = CompletableFuture
			.supplyAsync(() -> this.http.post("/effects").key("k-" + value).json(json(value)).send());
		assertThat(this.gate.awaitEntered()).isTrue();
		HttpResponse<byte[]> duplicate = this.http.post("/effects").key("k-" + value).json(json(value)).send();
		this.gate.open();
		assertThat(duplicate.statusCode()).isEqualTo(409);
		assertThat(duplicate.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(duplicate.headers().firstValue("Retry-After")).hasValueSatisfying(
				(seconds) -> assertThat(Integer.parseInt(seconds)).isBetween(1, 30));
		assertThat(Http.text(duplicate)).contains("urn:problem-type:idempotency:in-progress");
		assertThat(first.get().statusCode()).isEqualTo(201);
		assertThat(effects("effects", value)).isEqualTo(1);
	}

	@Test
	void refusesTheSameKeyForADifferentRequestWithoutShowingTheStoredResponse() {
		String value = unique();
		HttpResponse<byte[]> first = this.http.post("/effects").key("k-" + value).json(json(value)).send();
		HttpResponse<byte[]> other = this.http.post("/effects").key("k-" + value).json(json(value + "-changed")).send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(other.statusCode()).isEqualTo(422);
		assertThat(Http.text(other)).contains("urn:problem-type:idempotency:key-reused").doesNotContain(value);
		assertThat(effects("effects", value)).isEqualTo(1);
		assertThat(effects("effects", value + "-changed")).isZero();
	}

	@Test
	void refusesARequestWithoutKeyAndStoresNothing() {
		String value = unique();
		HttpResponse<byte[]> response = this.http.post("/effects").json(json(value)).send();
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(Http.text(response)).contains("urn:problem-type:idempotency:missing-key");
		assertThat(effects("effects", value)).isZero();
	}

	@Test
	void refusesAKeySentTwiceAndStoresNothing() {
		String value = unique();
		HttpResponse<byte[]> response = this.http.post("/effects")
			.key("a-" + value)
			.key("b-" + value)
			.json(json(value))
			.send();
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(Http.text(response)).contains("urn:problem-type:idempotency:invalid-key");
		assertThat(records("POST /effects", "a-" + value) + records("POST /effects", "b-" + value)).isZero();
		assertThat(effects("effects", value)).isZero();
	}

	@Test
	void acceptsAQuotedStructuredFieldKeyAsTheKeyItQuotes() {
		String value = unique();
		HttpResponse<byte[]> quoted = this.http.post("/effects").key("\"q-" + value + "\"").json(json(value)).send();
		HttpResponse<byte[]> bare = this.http.post("/effects").key("q-" + value).json(json(value)).send();
		assertThat(quoted.statusCode()).isEqualTo(201);
		assertThat(bare.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(effects("effects", value)).isEqualTo(1);
	}

	@Test
	void refusesABodyOverTheLimitWith413AndStoresNothing() {
		String value = unique();
		String big = "{\"value\":\"" + value + "\",\"padding\":\"" + "x".repeat(4096) + "\"}";
		HttpResponse<byte[]> response = this.http.post("/effects").key("k-" + value).json(big).send();
		assertThat(response.statusCode()).isEqualTo(413);
		assertThat(Http.text(response)).contains("urn:problem-type:idempotency:body-too-large");
		assertThat(records("POST /effects", "k-" + value)).isZero();
		assertThat(effects("effects", value)).isZero();
	}

	@Test
	void refusesJsonWithADuplicateMemberAndStoresNothing() {
		String value = unique();
		HttpResponse<byte[]> response = this.http.post("/effects")
			.key("k-" + value)
			.json("{\"value\":\"" + value + "\",\"value\":\"other\"}")
			.send();
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(Http.text(response)).contains("urn:problem-type:idempotency:malformed-body");
		assertThat(records("POST /effects", "k-" + value)).isZero();
		assertThat(effects("effects", value)).isZero();
		assertThat(effects("effects", "other")).isZero();
	}

	@Test
	void keepsTenantsApart() {
		String value = unique();
		HttpResponse<byte[]> acme = this.http.post("/effects")
			.key("k-" + value)
			.header("X-Tenant-Id", "acme")
			.json(json(value))
			.send();
		HttpResponse<byte[]> globex = this.http.post("/effects")
			.key("k-" + value)
			.header("X-Tenant-Id", "globex")
			.json(json(value))
			.send();
		assertThat(acme.statusCode()).isEqualTo(201);
		assertThat(globex.statusCode()).isEqualTo(201);
		assertThat(globex.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(globex.body()).isNotEqualTo(acme.body());
		assertThat(effects("effects", value)).isEqualTo(2);
	}

	@Test
	void refusesAnUnusableTenant() {
		String value = unique();
		HttpResponse<byte[]> response = this.http.post("/effects")
			.key("k-" + value)
			.header("X-Tenant-Id", "acme|principal:alice")
			.json(json(value))
			.send();
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(Http.text(response)).contains("urn:problem-type:idempotency:invalid-tenant");
		assertThat(effects("effects", value)).isZero();
	}

	@Test
	void releasesTransientFailuresSoThatARetryRunsAgain() {
		String value = unique();
		this.gate.failNext(1);
		HttpResponse<byte[]> failed = this.http.post("/effects").key("k-" + value).json(json(value)).send();
		assertThat(failed.statusCode()).isEqualTo(503);
		assertThat(records("POST /effects", "k-" + value)).isZero();
		HttpResponse<byte[]> retry = this.http.post("/effects").key("k-" + value).json(json(value)).send();
		assertThat(retry.statusCode()).isEqualTo(201);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(effects("effects", value)).isEqualTo(1);
	}

	@Test
	void storesAndReplaysFinalErrors() {
		String key = "k-" + unique();
		HttpResponse<byte[]> first = this.http.post("/refunds/7").key(key).json("{\"amount\":0}").send();
		HttpResponse<byte[]> replay = this.http.post("/refunds/7").key(key).json("{\"amount\":0}").send();
		assertThat(first.statusCode()).isEqualTo(400);
		assertThat(replay.statusCode()).isEqualTo(400);
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(records("refunds", key)).isEqualTo(1);
	}

	@Test
	void rendersAndStoresAnErrorSentWithoutBodyAsAProblem() {
		String key = "k-" + unique();
		long before = effects("sent-errors", "x");
		HttpResponse<byte[]> first = this.http.post("/sent-errors").key(key).send();
		HttpResponse<byte[]> replay = this.http.post("/sent-errors").key(key).send();
		assertThat(first.statusCode()).isEqualTo(404);
		assertThat(first.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(Http.text(first)).contains("\"status\":404");
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(effects("sent-errors", "x") - before).isEqualTo(1);
	}

	@Test
	void derivesKeysFromMethodArgumentsWithoutAHeader() {
		String event = unique();
		HttpResponse<byte[]> first = this.http.post("/events").header("X-Event-Id", event).json("{\"a\":1}").send();
		HttpResponse<byte[]> redelivery = this.http.post("/events")
			.header("X-Event-Id", event)
			.json("{ \"a\": 1 }")
			.send();
		HttpResponse<byte[]> forged = this.http.post("/events").header("X-Event-Id", event).json("{\"a\":2}").send();
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(redelivery.body()).isEqualTo(first.body());
		assertThat(redelivery.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(forged.statusCode()).isEqualTo(422);
		assertThat(effects("events", event)).isEqualTo(1);
		assertThat(records("events", "event:" + event)).isEqualTo(1);
	}

	@Test
	void runsUnguardedWhenAKeyIsOptionalAndMissing() {
		long before = effects("optional", "optional");
		assertThat(this.http.post("/optional").send().statusCode()).isEqualTo(200);
		assertThat(this.http.post("/optional").send().statusCode()).isEqualTo(200);
		assertThat(effects("optional", "optional") - before).isEqualTo(2);
	}

	protected long effects(String endpoint, String detail) {
		return this.jdbc.queryForObject("SELECT count(*) FROM effect WHERE endpoint = ? AND detail = ?", Long.class,
				endpoint, detail);
	}

	private long records(String operation, String key) {
		return this.store.find(new IdempotencyKey("default", operation, key))
			.filter((record) -> record.status() != RecordStatus.RELEASED)
			.isPresent() ? 1 : 0;
	}

	private String storedHeaders(String operation, String key) {
		return this.store.find(new IdempotencyKey("default", operation, key))
			.map((record) -> record.response().headers().keySet().toString())
			.orElse("");
	}

	protected static String json(String value) {
		return "{\"value\":\"" + value + "\"}";
	}

	protected static String unique() {
		return UUID.randomUUID().toString();
	}

}
