package io.github.idempotency.sample.support;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import io.github.idempotency.testsupport.Http;

import static io.github.idempotency.sample.support.Payments.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sends duplicates of a request from one real thread each, released together by a barrier, and
 * sorts their answers into the original, its byte-identical replays, in-progress conflicts and
 * anything else.
 */
public final class Duplicates {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static final String IN_PROGRESS = "urn:problem-type:idempotency:in-progress";

	private final ExecutorService threads;

	private final List<Future<HttpResponse<byte[]>>> futures;

	private Duplicates(ExecutorService threads, List<Future<HttpResponse<byte[]>>> futures) {
		this.threads = threads;
		this.futures = futures;
	}

	/**
	 * Start sending {@code count} requests at once, without waiting for their answers.
	 * @param count how many requests
	 * @param request sends the {@code i}-th request and returns its answer
	 * @return the requests under way
	 */
	public static Duplicates send(int count, IntFunction<HttpResponse<byte[]>> request) {
		CyclicBarrier start = new CyclicBarrier(count);
		ExecutorService threads = Executors.newFixedThreadPool(count);
		List<Future<HttpResponse<byte[]>>> futures = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			int index = i;
			futures.add(threads.submit(() -> {
				start.await();
				return request.apply(index);
			}));
		}
		return new Duplicates(threads, futures);
	}

	/**
	 * Return how many requests have been answered.
	 * @return the number of answers so far
	 */
	public long answered() {
		return this.futures.stream().filter(Future::isDone).count();
	}

	/**
	 * Wait for every answer.
	 * @return the answers, in the order the requests were made
	 * @throws Exception if a request failed without an answer
	 */
	public List<HttpResponse<byte[]>> answers() throws Exception {
		try {
			List<HttpResponse<byte[]>> answers = new ArrayList<>();
			for (Future<HttpResponse<byte[]>> future : this.futures) {
				answers.add(future.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
			}
			return answers;
		}
		finally {
			this.threads.shutdownNow();
		}
	}

	/**
	 * Wait for every answer and assert that exactly one ran the request with the given status and
	 * that every other one is a byte-identical replay of it or an in-progress conflict.
	 * @param status the status of the original answer
	 * @return the original answer
	 * @throws Exception if a request failed without an answer
	 */
	public HttpResponse<byte[]> assertOneOriginalAndOnlyReplaysOrConflicts(int status) throws Exception {
		List<HttpResponse<byte[]>> answers = answers();
		List<HttpResponse<byte[]>> originals = answers.stream()
			.filter((answer) -> answer.headers().firstValue("Idempotent-Replayed").isEmpty() && !isConflict(answer))
			.toList();
		assertThat(originals).as("answers that ran the request").hasSize(1);
		HttpResponse<byte[]> original = originals.get(0);
		assertThat(original.statusCode()).as(Http.text(original)).isEqualTo(status);
		assertThat(answers).allSatisfy((answer) -> assertThat(
				answer == original || isReplayOf(answer, original) || isConflict(answer))
			.as("original, replay or conflict: %s %s", answer.statusCode(), Http.text(answer))
			.isTrue());
		return original;
	}

	/**
	 * Return whether an answer replays another byte for byte.
	 * @param answer the answer
	 * @param original the original answer
	 * @return whether it is a replay of it
	 */
	public static boolean isReplayOf(HttpResponse<byte[]> answer, HttpResponse<byte[]> original) {
		return answer.statusCode() == original.statusCode()
				&& answer.headers().firstValue("Idempotent-Replayed").equals(Optional.of("true"))
				&& Arrays.equals(answer.body(), original.body())
				&& answer.headers().firstValue("Location").equals(original.headers().firstValue("Location"));
	}

	/**
	 * Return whether an answer is the starter's in-progress answer.
	 * @param answer the answer
	 * @return whether it is a {@code 409} in-progress problem with {@code Retry-After}, or the
	 * {@code 202 Accepted} of an operation with accept-after, with the link of its status
	 */
	public static boolean isConflict(HttpResponse<byte[]> answer) {
		if (answer.statusCode() == 202) {
			return answer.headers().firstValue("Location").orElse("").startsWith("/idempotency/operations/")
					&& answer.headers().firstValue("Retry-After").isPresent();
		}
		return answer.statusCode() == 409 && answer.headers().firstValue("Retry-After").isPresent()
				&& IN_PROGRESS.equals(json(answer).path("type").asString(""));
	}

}
