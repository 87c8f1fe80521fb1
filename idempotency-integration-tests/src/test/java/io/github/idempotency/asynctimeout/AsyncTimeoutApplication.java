package io.github.idempotency.asynctimeout;

import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.core.task.support.TaskExecutorAdapter;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.context.request.async.WebAsyncTask;
import org.springframework.web.server.ResponseStatusException;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import io.github.idempotency.annotation.Idempotent;

/**
 * Asynchronous handlers whose work outlives {@code spring.mvc.async.request-timeout}: each run is
 * counted, and holds until the test lets it finish.
 */
@SpringBootApplication
public class AsyncTimeoutApplication {

	/**
	 * The work of each request value: how many times it ran, and the gate it waits at.
	 */
	public static class Work {

		private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

		private final Map<String, CountDownLatch> gates = new ConcurrentHashMap<>();

		int runs(String value) {
			AtomicInteger count = this.runs.get(value);
			return (count != null) ? count.get() : 0;
		}

		void finish(String value) {
			gate(value).countDown();
		}

		/**
		 * Count a run and wait until the test lets it finish, deaf to interrupts, as a call
		 * blocked on a socket is.
		 */
		void run(String value) {
			this.runs.computeIfAbsent(value, (key) -> new AtomicInteger()).incrementAndGet();
			CountDownLatch gate = gate(value);
			boolean interrupted = false;
			try {
				while (true) {
					try {
						if (gate.await(30, TimeUnit.SECONDS)) {
							return;
						}
						throw new IllegalStateException("The test never let " + value + " finish");
					}
					catch (InterruptedException ex) {
						interrupted = true;
					}
				}
			}
			finally {
				if (interrupted) {
					Thread.currentThread().interrupt();
				}
			}
		}

		private CountDownLatch gate(String value) {
			return this.gates.computeIfAbsent(value, (key) -> new CountDownLatch(1));
		}

	}

	@org.springframework.context.annotation.Bean
	Work work() {
		return new Work();
	}

	@RestController
	static class Handlers {

		private final Work work;

		private final ExecutorService executor = Executors.newCachedThreadPool();

		private final ExecutorService oneThread = Executors.newSingleThreadExecutor();

		Handlers(Work work) {
			this.work = work;
		}

		@Idempotent(operation = "future")
		@PostMapping("/future")
		CompletableFuture<ResponseEntity<Map<String, Object>>> future(@RequestBody Map<String, String> body) {
			return CompletableFuture.supplyAsync(() -> created(body.get("value")), this.executor);
		}

		@Idempotent(operation = "future-failing")
		@PostMapping("/future-failing")
		CompletableFuture<Map<String, Object>> futureFailing(@RequestBody Map<String, String> body) {
			return CompletableFuture.supplyAsync(() -> {
				this.work.run(body.get("value"));
				throw new IllegalStateException("the downstream call failed");
			}, this.executor);
		}

		@Idempotent(operation = "future-declined")
		@PostMapping("/future-declined")
		CompletableFuture<Map<String, Object>> futureDeclined(@RequestBody Map<String, String> body) {
			return CompletableFuture.supplyAsync(() -> {
				this.work.run(body.get("value"));
				throw new ResponseStatusException(HttpStatus.UNPROCESSABLE_ENTITY, "declined");
			}, this.executor);
		}

		/**
		 * A reactive return type, which Spring MVC subscribes to and answers from asynchronously.
		 */
		@Idempotent(operation = "mono")
		@PostMapping("/mono")
		Mono<ResponseEntity<Map<String, Object>>> mono(@RequestBody Map<String, String> body) {
			return Mono.fromCallable(() -> created(body.get("value"))).subscribeOn(Schedulers.fromExecutor(this.executor));
		}

		/**
		 * A reactive type of many values, which Spring MVC collects into one JSON array.
		 */
		@Idempotent(operation = "flux")
		@PostMapping("/flux")
		Flux<Map<String, Object>> flux(@RequestBody Map<String, String> body) {
			return Flux.defer(() -> Flux.just(created(body.get("value")).getBody()))
				.subscribeOn(Schedulers.fromExecutor(this.executor));
		}

		@Idempotent(operation = "callable")
		@PostMapping("/callable")
		Callable<ResponseEntity<Map<String, Object>>> callable(@RequestBody Map<String, String> body) {
			return () -> created(body.get("value"));
		}

		/**
		 * Runs on one thread, which the test can keep busy so that the task is still queued when
		 * its request times out.
		 */
		@Idempotent(operation = "queued")
		@PostMapping("/queued")
		WebAsyncTask<ResponseEntity<Map<String, Object>>> queued(@RequestBody Map<String, String> body) {
			return new WebAsyncTask<>(null, new TaskExecutorAdapter(this.oneThread), () -> created(body.get("value")));
		}

		void occupyTheQueuedThread(String value) {
			this.oneThread.execute(() -> this.work.run(value));
		}

		java.util.concurrent.Future<?> drainTheQueuedThread() {
			return this.oneThread.submit(() -> {
			});
		}

		@Idempotent(operation = "deferred")
		@PostMapping("/deferred")
		DeferredResult<ResponseEntity<Map<String, Object>>> deferred(@RequestBody Map<String, String> body) {
			DeferredResult<ResponseEntity<Map<String, Object>>> result = new DeferredResult<>();
			this.executor.execute(() -> result.setResult(created(body.get("value"))));
			return result;
		}

		private ResponseEntity<Map<String, Object>> created(String value) {
			this.work.run(value);
			return ResponseEntity.status(HttpStatus.CREATED)
				.header("Location", "/things/" + value)
				.body(Map.of("value", value, "runs", this.work.runs(value)));
		}

	}

}
