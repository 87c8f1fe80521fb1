package io.github.idempotency.sample.reliability;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.idempotency.testsupport.Http;

import static io.github.idempotency.sample.support.Payments.body;
import static io.github.idempotency.sample.support.Payments.customer;
import static io.github.idempotency.sample.support.Payments.newKey;

/**
 * Sends duplicates of payments from one real thread each, released together by a barrier and
 * spread over application instances, and collects what every one of them was answered.
 */
final class DuplicateStorm {

	private static final Duration TIMEOUT = Duration.ofSeconds(90);

	private DuplicateStorm() {
	}

	/**
	 * Send {@code duplicates} identical requests for each of {@code keys} new keys at once; the
	 * duplicates of a key alternate between the instances.
	 * @param instances the instances to spread the requests over
	 * @param keys how many distinct keys
	 * @param duplicates how many identical requests per key
	 * @return the requests sent and their answers, by key
	 * @throws Exception if a request failed without an answer
	 */
	static Map<Payment, List<Answer>> send(List<Http> instances, int keys, int duplicates) throws Exception {
		List<Payment> payments = new ArrayList<>();
		for (int i = 0; i < keys; i++) {
			payments.add(new Payment(newKey(), body(customer("c-"), 1000 + i, "EUR")));
		}
		int total = keys * duplicates;
		CyclicBarrier start = new CyclicBarrier(total);
		ExecutorService threads = Executors.newFixedThreadPool(total);
		try {
			List<Future<Answer>> futures = new ArrayList<>();
			for (int i = 0; i < total; i++) {
				Payment payment = payments.get(i % keys);
				int instance = (i / keys) % instances.size();
				Http http = instances.get(instance);
				futures.add(threads.submit(() -> {
					start.await();
					return new Answer(instance,
							http.post("/payments").key(payment.key()).json(payment.body()).send());
				}));
			}
			Map<Payment, List<Answer>> answers = new LinkedHashMap<>();
			payments.forEach((payment) -> answers.put(payment, new ArrayList<>()));
			for (int i = 0; i < total; i++) {
				answers.get(payments.get(i % keys)).add(futures.get(i).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
			}
			return answers;
		}
		finally {
			threads.shutdownNow();
		}
	}

	/**
	 * A payment request.
	 *
	 * @param key its idempotency key
	 * @param body its JSON body
	 */
	record Payment(String key, String body) {

	}

	/**
	 * What one request was answered.
	 *
	 * @param instance the index of the instance that answered
	 * @param response the response
	 */
	record Answer(int instance, HttpResponse<byte[]> response) {

		int status() {
			return this.response.statusCode();
		}

		boolean replayed() {
			return this.response.headers().firstValue("Idempotent-Replayed").isPresent();
		}

	}

}
