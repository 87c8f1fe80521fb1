package io.github.idempotency.springways;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.idempotency.IdempotencyException;
import io.github.idempotency.springways.SpringWaysApplication.SequencedPostings;
import io.github.idempotency.testsupport.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Updates ordered by a sequence number per scope ({@code @IdempotentSequence}), over real HTTP
 * on PostgreSQL and on bean methods: a lower number than the highest processed is refused with
 * 409 and changes nothing, a processed number is replayed, and two instances racing over one
 * scope apply exactly the accepted updates, in increasing order.
 */
class SequenceTests extends SpringWaysTest {

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final String STALE = "urn:problem-type:idempotency:stale-sequence";

	@Autowired
	SequencedPostings postings;

	@Autowired
	MeterRegistry meters;

	@Test
	void anUpdateOlderThanTheHighestAppliedIsRefusedWith409AndChangesNothing() {
		String session = unique();
		double staleBefore = staleOutcomes();
		assertThat(update(http(), session, 1).statusCode()).isEqualTo(200);
		assertThat(update(http(), session, 3).statusCode()).isEqualTo(200);
		HttpResponse<byte[]> late = update(http(), session, 2);
		assertThat(late.statusCode()).isEqualTo(409);
		assertThat(late.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		JsonNode problem = json.readTree(Http.text(late));
		assertThat(problem.path("type").asString()).isEqualTo(STALE);
		assertThat(problem.path("sequence").asLong()).isEqualTo(2);
		assertThat(problem.path("highestSequence").asLong()).isEqualTo(3);
		assertThat(problem.path("detail").asString()).contains("3");
		assertThat(update(http(), session, 2).statusCode()).isEqualTo(409);
		assertThat(applied(session)).containsExactly(1L, 3L);
		assertThat(records("session_update:" + session + ":cart:2")).isZero();
		assertThat(staleOutcomes() - staleBefore).isEqualTo(2);
	}

	/**
	 * A redelivered update that was applied is an ordinary duplicate: its stored answer is
	 * replayed, even after a higher number was applied, and it is never called stale.
	 */
	@Test
	void aRedeliveredUpdateThatWasAppliedIsReplayed() {
		String session = unique();
		HttpResponse<byte[]> first = update(http(), session, 1);
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(update(http(), session, 2).statusCode()).isEqualTo(200);
		HttpResponse<byte[]> again = update(http(), session, 1);
		assertThat(again.statusCode()).isEqualTo(200);
		assertThat(again.body()).isEqualTo(first.body());
		assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(applied(session)).containsExactly(1L, 2L);
	}

	@Test
	void anUpdateWithoutASequenceNumberIsABadRequestAndClaimsNothing() {
		String session = unique();
		HttpResponse<byte[]> response = http().patch("/sessions/" + session + "/cart")
			.json("{\"sequence\":\"first\",\"item\":\"x\"}")
			.send();
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(Http.text(response)).contains("urn:problem-type:idempotency:invalid-sequence");
		assertThat(records("session_update:" + session + ":cart:first")).isZero();
		assertThat(applied(session)).isEmpty();
	}

	@Test
	void aBeanMethodCallWithALowerNumberThrowsAnExceptionTheCallerCanCatch() {
		String account = unique();
		assertThat(this.postings.post(account, 2)).isEqualTo("posted 2 to " + account);
		IdempotencyException stale = catchThrowableOfType(IdempotencyException.class,
				() -> this.postings.post(account, 1));
		assertThat(stale.getStatusCode().value()).isEqualTo(409);
		assertThat(stale.getBody().getType()).hasToString(STALE);
		assertThat(stale.getBody().getProperties()).containsEntry("highestSequence", 2L);
		assertThat(this.effects.count("sequenced-posting", account + ":1")).isZero();
		assertThat(this.postings.post(account, 2)).isEqualTo("posted 2 to " + account);
		assertThat(this.postings.post(account, 3)).isEqualTo("posted 3 to " + account);
		assertThat(this.effects.count("sequenced-posting", account + ":2")).isOne();
		assertThat(this.effects.count("sequenced-posting", account + ":3")).isOne();
	}

	/**
	 * 32 updates of one session, their numbers shuffled, sent at once to two instances of the
	 * application on one database: the highest number is applied, every refused update is
	 * answered 409 and left no row, and the applied rows are exactly the accepted updates, in
	 * increasing order of their numbers.
	 */
	@Test
	void updatesRacingOverTwoInstancesApplyExactlyTheAcceptedOnesInIncreasingOrder() throws Exception {
		try (SecondInstance second = SecondInstance.start(database)) {
			List<Http> instances = List.of(http(), new Http(second.port()));
			int refused = 0;
			for (int round = 0; round < 3; round++) {
				String session = unique();
				List<Long> numbers = new ArrayList<>();
				for (long n = 1; n <= 32; n++) {
					numbers.add(n);
				}
				Collections.shuffle(numbers);
				Map<Long, HttpResponse<byte[]>> answers = race(session, numbers, instances);
				List<Long> accepted = new ArrayList<>();
				answers.forEach((sequence, answer) -> {
					if (answer.statusCode() == 200) {
						accepted.add(sequence);
						return;
					}
					assertThat(answer.statusCode()).as("answer to update %d", sequence).isEqualTo(409);
					JsonNode problem = json.readTree(Http.text(answer));
					assertThat(problem.path("type").asString()).isEqualTo(STALE);
					assertThat(problem.path("highestSequence").asLong()).isGreaterThan(sequence);
				});
				Collections.sort(accepted);
				assertThat(accepted).contains(32L);
				assertThat(applied(session)).as("applied updates, in the order applied").isEqualTo(accepted);
				refused += 32 - accepted.size();
			}
			assertThat(refused).as("updates refused as stale in three rounds").isPositive();
		}
	}

	private Map<Long, HttpResponse<byte[]>> race(String session, List<Long> numbers, List<Http> instances)
			throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(numbers.size());
		try {
			CountDownLatch start = new CountDownLatch(1);
			Map<Long, Future<HttpResponse<byte[]>>> sent = new LinkedHashMap<>();
			for (int i = 0; i < numbers.size(); i++) {
				long sequence = numbers.get(i);
				Http instance = instances.get(i % instances.size());
				sent.put(sequence, executor.submit(() -> {
					start.await();
					return update(instance, session, sequence);
				}));
			}
			start.countDown();
			Map<Long, HttpResponse<byte[]>> answers = new TreeMap<>();
			for (Map.Entry<Long, Future<HttpResponse<byte[]>>> future : sent.entrySet()) {
				answers.put(future.getKey(), future.getValue().get(2, TimeUnit.MINUTES));
			}
			return answers;
		}
		finally {
			executor.shutdownNow();
		}
	}

	private static HttpResponse<byte[]> update(Http http, String session, long sequence) {
		return http.patch("/sessions/" + session + "/cart")
			.json("{\"sequence\":" + sequence + ",\"item\":\"item-" + sequence + "\"}")
			.send();
	}

	private List<Long> applied(String session) {
		return this.jdbc.queryForList("SELECT sequence FROM session_update WHERE session_id = ? ORDER BY id",
				Long.class, session);
	}

	private double staleOutcomes() {
		return this.meters.get("idempotency.requests")
			.tag("operation", "session-cart")
			.tag("outcome", "stale_sequence")
			.counter()
			.count();
	}

}
