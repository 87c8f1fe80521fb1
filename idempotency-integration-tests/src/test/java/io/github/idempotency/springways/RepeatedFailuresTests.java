package io.github.idempotency.springways;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.idempotency.KeyHashes;
import io.github.idempotency.testsupport.Http;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A key that fails transiently again and again, over real HTTP on PostgreSQL: each failure is
 * kept with the key (attempts, last failure, its time) while a retry still runs again; the key's
 * attempts reach the meters, the observation and the Actuator endpoint, which shows its hash,
 * never the key.
 */
class RepeatedFailuresTests extends SpringWaysTest {

	private static final JsonMapper json = JsonMapper.builder().build();

	@Autowired
	MeterRegistry meters;

	@Autowired
	TestObservationRegistry observations;

	@Test
	void attemptsAreCountedAcrossThreeTransientFailuresAndASuccess() {
		String key = unique();
		String body = "{\"value\":\"" + key + "\",\"failures\":3}";
		DistributionSummary attempts = this.meters.get("idempotency.attempts").tag("operation", "flaky").summary();
		Counter repeated = this.meters.get("idempotency.repeated.failures").tag("operation", "flaky").counter();
		long storedBefore = attempts.count();
		double attemptsBefore = attempts.totalAmount();
		double repeatedBefore = repeated.count();
		for (int failure = 1; failure <= 3; failure++) {
			assertThat(http().post("/flaky").key(key).json(body).send().statusCode()).isEqualTo(503);
			Map<String, Object> released = record(key);
			assertThat(released).containsEntry("status", "RELEASED")
				.containsEntry("attempts", failure)
				.containsEntry("last_failure", "status 503");
			assertThat(released.get("last_failure_at")).isNotNull();
			assertThat(released.get("response_body")).isNull();
		}
		assertThat(repeated.count() - repeatedBefore).isEqualTo(1);
		HttpResponse<byte[]> created = http().post("/flaky").key(key).json(body).send();
		assertThat(created.statusCode()).isEqualTo(201);
		HttpResponse<byte[]> replay = http().post("/flaky").key(key).json(body).send();
		assertThat(replay.statusCode()).isEqualTo(201);
		assertThat(replay.body()).isEqualTo(created.body());
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.effects.count("flaky", key)).isEqualTo(4);
		assertThat(record(key)).containsEntry("status", "COMPLETED")
			.containsEntry("attempts", 4)
			.containsEntry("last_failure", "status 503");
		assertThat(attempts.count() - storedBefore).isEqualTo(1);
		assertThat(attempts.totalAmount() - attemptsBefore).isEqualTo(4);
		assertThat(repeated.count() - repeatedBefore).isEqualTo(1);
		assertThat(observedAttempts(key)).containsExactlyInAnyOrder("1", "2", "3", "4");
		JsonNode listed = repeatedFailure(key);
		assertThat(listed.path("operation").asString()).isEqualTo("flaky");
		assertThat(listed.path("status").asString()).isEqualTo("COMPLETED");
		assertThat(listed.path("attempts").asInt()).isEqualTo(4);
		assertThat(listed.path("lastFailure").asString()).isEqualTo("status 503");
		assertThat(listed.path("lastFailureAt").asString()).isNotEmpty();
		assertThat(listed.toString()).doesNotContain(key);
	}

	@Test
	void theActuatorLooksUpTheAttemptsAndLastFailureOfAKeyWaitingForItsRetry() {
		String key = unique();
		String body = "{\"value\":\"" + key + "\",\"failures\":5}";
		http().post("/flaky").key(key).json(body).send();
		http().post("/flaky").key(key).json(body).send();
		HttpResponse<byte[]> response = http()
			.get("/actuator/idempotency?tenant=default&operation=flaky&key=" + key)
			.send();
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode described = json.readTree(Http.text(response));
		assertThat(described.path("status").asString()).isEqualTo("RELEASED");
		assertThat(described.path("attempts").asInt()).isEqualTo(2);
		assertThat(described.path("lastFailure").asString()).isEqualTo("status 503");
		assertThat(described.path("responseStatus").isNull()).isTrue();
		assertThat(repeatedFailure(key).path("status").asString()).isEqualTo("RELEASED");
	}

	private Map<String, Object> record(String key) {
		return this.jdbc.queryForMap("SELECT status, attempts, last_failure, last_failure_at, response_body "
				+ "FROM idempotency_record WHERE operation = 'flaky' AND idempotency_key = ?", key);
	}

	private JsonNode repeatedFailure(String key) {
		HttpResponse<byte[]> response = http().get("/actuator/idempotency?operation=flaky").send();
		assertThat(response.statusCode()).isEqualTo(200);
		String hash = KeyHashes.shortHash(key);
		List<JsonNode> listed = json.readTree(Http.text(response))
			.path("repeatedFailures")
			.valueStream()
			.filter((failure) -> hash.equals(failure.path("keyHash").asString()))
			.toList();
		assertThat(listed).hasSize(1);
		return listed.get(0);
	}

	private List<String> observedAttempts(String key) {
		String hash = KeyHashes.shortHash(key);
		Object[] found = new Object[1];
		TestObservationRegistryAssert.assertThat(this.observations)
			.hasHandledContextsThatSatisfy((contexts) -> found[0] = contexts.stream()
				.filter((context) -> "idempotency.request".equals(context.getName()))
				.filter((context) -> context.getHighCardinalityKeyValue("idempotency.key.hash") != null
						&& hash.equals(context.getHighCardinalityKeyValue("idempotency.key.hash").getValue()))
				.filter((context) -> context.getHighCardinalityKeyValue("idempotency.attempt") != null)
				.map((context) -> context.getHighCardinalityKeyValue("idempotency.attempt").getValue())
				.toList());
		@SuppressWarnings("unchecked")
		List<String> attempts = (List<String>) found[0];
		return attempts;
	}

}
