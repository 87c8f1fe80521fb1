package io.github.idempotency.testsupport.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs one call on many real threads released at the same instant, and collects what each
 * returned.
 */
final class Race {

	private Race() {
	}

	/**
	 * Run a call on every thread at once.
	 * @param <T> the result type
	 * @param threads how many threads take part
	 * @param contender the call, given the index of its thread
	 * @return the results, in thread index order
	 * @throws Exception if a call failed or did not finish within a minute
	 */
	static <T> List<T> run(int threads, Contender<T> contender) throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			CountDownLatch ready = new CountDownLatch(threads);
			CountDownLatch start = new CountDownLatch(1);
			List<Future<T>> futures = new ArrayList<>();
			for (int i = 0; i < threads; i++) {
				int index = i;
				futures.add(executor.submit(() -> {
					ready.countDown();
					start.await();
					return contender.call(index);
				}));
			}
			ready.await();
			start.countDown();
			List<T> results = new ArrayList<>();
			for (Future<T> future : futures) {
				results.add(future.get(1, TimeUnit.MINUTES));
			}
			return results;
		}
		finally {
			executor.shutdownNow();
		}
	}

	/**
	 * What one thread of a race does.
	 *
	 * @param <T> the result type
	 */
	@FunctionalInterface
	interface Contender<T> {

		T call(int index) throws Exception;

	}

}
