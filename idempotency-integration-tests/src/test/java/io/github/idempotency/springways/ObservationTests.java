package io.github.idempotency.springways;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.function.Consumer;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.github.idempotency.KeyHashes;
import io.github.idempotency.testsupport.Http;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every guarded call is one {@code idempotency.request} observation, a timer and a trace span,
 * tagged with its operation, mode and outcome, and with a hash of its key, never the key.
 */
class ObservationTests extends SpringWaysTest {

	@Autowired
	TestObservationRegistry observations;

	@Test
	void executionIsObservedWithItsOperationModeOutcomeAndKeyHash() {
		String key = unique();
		HttpResponse<byte[]> response = http().post("/logged").key(key).json(json(key)).send();
		assertThat(response.statusCode()).isEqualTo(201);
		assertObserved(key, (context) -> {
			assertThat(context.getLowCardinalityKeyValues()).containsExactlyInAnyOrder(
					KeyValue.of("operation", "logged"), KeyValue.of("mode", "leased"),
					KeyValue.of("outcome", "executed"));
			assertThat(context.getHighCardinalityKeyValue("idempotency.key.hash").getValue())
				.isEqualTo(KeyHashes.shortHash(key))
				.doesNotContain(key);
			assertThat(context.getError()).isNull();
		});
	}

	@Test
	void replayIsObservedAsReplayed() {
		String key = unique();
		http().post("/logged").key(key).json(json(key)).send();
		HttpResponse<byte[]> replay = http().post("/logged").key(key).json(json(key)).send();
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(observedOutcomes(key)).containsExactlyInAnyOrder("executed", "replayed");
	}

	@Test
	void reusedKeyIsObservedAsAMismatch() {
		String key = unique();
		http().post("/logged").key(key).json(json(key)).send();
		HttpResponse<byte[]> reused = http().post("/logged").key(key).json(json("other")).send();
		assertThat(reused.statusCode()).isEqualTo(422);
		assertThat(observedOutcomes(key)).containsExactlyInAnyOrder("executed", "mismatch");
	}

	@Test
	void atomicExecutionIsObservedInItsMode() {
		String key = unique();
		http().post("/logged-atomic").key(key).json(json(key)).send();
		assertObserved(key, (context) -> assertThat(context.getLowCardinalityKeyValue("mode").getValue())
			.isEqualTo("atomic"));
	}

	@Test
	void asynchronousHandlerIsObservedUntilItsResultIsStored() {
		String key = unique();
		HttpResponse<byte[]> response = http().post("/async/callable").key(key).json(json(key)).send();
		assertThat(response.statusCode()).isEqualTo(201);
		assertObserved(key, (context) -> assertThat(context.getLowCardinalityKeyValue("outcome").getValue())
			.isEqualTo("executed"));
	}

	@Test
	void businessCodeRunsInsideTheObservationSoThatItsSpansAreChildren() {
		String key = unique();
		HttpResponse<byte[]> response = http().post("/observed").key(key).json(json(key)).send();
		assertThat(Http.text(response)).contains("\"observedAs\":\"idempotency.request\"");
	}

	@Test
	void missingKeyIsObservedWithoutAKeyHash() {
		this.observations.clear();
		HttpResponse<byte[]> response = http().post("/logged").json(json("no key")).send();
		assertThat(response.statusCode()).isEqualTo(400);
		TestObservationRegistryAssert.assertThat(this.observations)
			.hasHandledContextsThatSatisfy((contexts) -> assertThat(contexts)
				.filteredOn((context) -> "idempotency.request".equals(context.getName()))
				.singleElement()
				.satisfies((context) -> {
					assertThat(context.getLowCardinalityKeyValue("outcome").getValue()).isEqualTo("missing_key");
					assertThat(context.getLowCardinalityKeyValue("mode").getValue()).isEqualTo("leased");
					assertThat(context.getHighCardinalityKeyValue("idempotency.key.hash")).isNull();
				}));
	}

	private void assertObserved(String key, Consumer<Observation.Context> assertions) {
		assertThat(observedFor(key)).singleElement().satisfies(assertions::accept);
	}

	private List<String> observedOutcomes(String key) {
		return observedFor(key).stream()
			.map((context) -> context.getLowCardinalityKeyValue("outcome").getValue())
			.toList();
	}

	private List<Observation.Context> observedFor(String key) {
		String hash = KeyHashes.shortHash(key);
		Object[] found = new Object[1];
		TestObservationRegistryAssert.assertThat(this.observations).hasHandledContextsThatSatisfy((contexts) -> {
			found[0] = contexts.stream()
				.filter((context) -> "idempotency.request".equals(context.getName()))
				.filter((context) -> {
					KeyValue value = context.getHighCardinalityKeyValue("idempotency.key.hash");
					return value != null && hash.equals(value.getValue());
				})
				.toList();
		});
		@SuppressWarnings("unchecked")
		List<Observation.Context> contexts = (List<Observation.Context>) found[0];
		return contexts;
	}

}
