package io.github.idempotency.web.servlet;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import io.github.idempotency.IdempotencyContext;
import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.annotation.Idempotent;

/**
 * A small application whose endpoints record each execution as a row in {@code effect}, so that
 * tests count effects in the database.
 */
@SpringBootApplication
public class WebTestApplication {

	@Bean
	Gate gate() {
		return new Gate();
	}

	/**
	 * Holds requests inside their handler until a test lets them go.
	 */
	public static class Gate {

		private final AtomicInteger entered = new AtomicInteger();

		private volatile CountDownLatch open = new CountDownLatch(0);

		private final AtomicInteger transientFailures = new AtomicInteger();

		/**
		 * Make requests wait inside their handler until {@link #open()}.
		 */
		public void close() {
			this.entered.set(0);
			this.open = new CountDownLatch(1);
		}

		public void open() {
			this.open.countDown();
		}

		/**
		 * Wait until the given number of requests have entered their handler since {@link #close()}.
		 * @param requests how many requests
		 * @return whether they entered within 30 seconds
		 */
		public boolean awaitEntered(int requests) throws InterruptedException {
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
			synchronized (this.entered) {
				while (this.entered.get() < requests) {
					long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
					if (remaining <= 0) {
						return false;
					}
					this.entered.wait(remaining);
				}
			}
			return true;
		}

		public boolean awaitEntered() throws InterruptedException {
			return awaitEntered(1);
		}

		/**
		 * Make the next requests fail with a transient 503 after passing the gate.
		 * @param requests how many requests fail
		 */
		public void failNext(int requests) {
			this.transientFailures.set(requests);
		}

		public boolean shouldFail() {
			return this.transientFailures.getAndUpdate((n) -> Math.max(0, n - 1)) > 0;
		}

		public void pass() throws InterruptedException {
			CountDownLatch latch = this.open;
			synchronized (this.entered) {
				this.entered.incrementAndGet();
				this.entered.notifyAll();
			}
			if (!latch.await(60, TimeUnit.SECONDS)) {
				throw new IllegalStateException("The test never opened the gate");
			}
		}

	}

	@RestController
	static class EffectController {

		private final JdbcTemplate jdbc;

		private final Gate gate;

		EffectController(JdbcTemplate jdbc, Gate gate) {
			this.jdbc = jdbc;
			this.gate = gate;
		}

		@Idempotent
		@PostMapping("/effects")
		ResponseEntity<Map<String, Object>> create(@RequestBody Map<String, Object> body, HttpServletResponse response)
				throws InterruptedException {
			this.gate.pass();
			if (this.gate.shouldFail()) {
				throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "try again");
			}
			long id = record("effects", String.valueOf(body.get("value")));
			response.addHeader("Set-Cookie", "session=secret");
			response.addHeader("X-Request-Trace", "trace-" + id);
			return ResponseEntity.created(URI.create("/effects/" + id))
				.body(Map.of("id", id, "value", String.valueOf(body.get("value")), "token",
						IdempotencyContext.require().fencingToken().toString()));
		}

		@Idempotent(operation = "waiting")
		@PostMapping("/waiting")
		Map<String, Object> waiting(@RequestBody Map<String, Object> body) throws InterruptedException {
			this.gate.pass();
			if (this.gate.shouldFail()) {
				throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "try again");
			}
			return Map.of("id", record("waiting", String.valueOf(body.get("value"))));
		}

		@Idempotent(operation = "refunds")
		@PostMapping("/refunds/{id}")
		Map<String, Object> refund(@PathVariable long id, @RequestBody Map<String, Object> body,
				@RequestHeader("Idempotency-Key") String key) {
			if (((Number) body.getOrDefault("amount", 0)).longValue() <= 0) {
				throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "amount must be positive");
			}
			return Map.of("refund", record("refunds", "refund " + id));
		}

		@Idempotent(operation = "events", key = "'event:' + #eventId")
		@PostMapping("/events")
		Map<String, Object> event(@RequestHeader("X-Event-Id") String eventId, @RequestBody String payload) {
			return Map.of("handled", record("events", eventId));
		}

		@Idempotent(operation = "optional", required = false)
		@PostMapping("/optional")
		Map<String, Object> optional() {
			return Map.of("effect", record("optional", "optional"));
		}

		@Idempotent(operation = "sent-errors")
		@PostMapping("/sent-errors")
		void sentError(HttpServletResponse response) throws IOException {
			record("sent-errors", "x");
			response.sendError(404, "nothing here");
		}

		@Idempotent(operation = "atomic", mode = IdempotencyMode.ATOMIC)
		@PostMapping("/atomic")
		ResponseEntity<Map<String, Object>> atomic(@RequestParam(defaultValue = "ok") String outcome,
				@RequestBody Map<String, Object> body) throws InterruptedException {
			long id = record("atomic", String.valueOf(body.get("value")));
			this.gate.pass();
			if (outcome.equals("final")) {
				throw new ResponseStatusException(HttpStatus.UNPROCESSABLE_ENTITY, "rejected after writing");
			}
			if (this.gate.shouldFail()) {
				throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "failed after writing");
			}
			return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("id", id));
		}

		/**
		 * A long operation: with accept-after set, its request may be answered 202 while it runs.
		 */
		@Idempotent(operation = "reports")
		@PostMapping("/reports")
		ResponseEntity<Map<String, Object>> report(@RequestBody Map<String, Object> body) throws InterruptedException {
			return longWork("reports", body);
		}

		/**
		 * The same, with an accept-after longer than its work usually takes.
		 */
		@Idempotent(operation = "summaries")
		@PostMapping("/summaries")
		ResponseEntity<Map<String, Object>> summary(@RequestBody Map<String, Object> body)
				throws InterruptedException {
			return longWork("summaries", body);
		}

		private ResponseEntity<Map<String, Object>> longWork(String endpoint, Map<String, Object> body)
				throws InterruptedException {
			this.gate.pass();
			if (this.gate.shouldFail()) {
				throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "try again");
			}
			if ("refuse".equals(body.get("value"))) {
				throw new ResponseStatusException(HttpStatus.UNPROCESSABLE_ENTITY, "this report cannot be made");
			}
			long id = record(endpoint, String.valueOf(body.get("value")));
			return ResponseEntity.created(URI.create("/" + endpoint + "/" + id))
				.header("X-Request-Trace", "trace-" + id)
				.body(Map.of("id", id, "token", IdempotencyContext.require().fencingToken().toString(), "thread",
						Thread.currentThread().getName(), "principal", principal()));
		}

		private static String principal() {
			Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
			return (authentication != null) ? authentication.getName() : "none";
		}

		private long record(String endpoint, String detail) {
			return this.jdbc.queryForObject("INSERT INTO effect (endpoint, detail) VALUES (?, ?) RETURNING id",
					Long.class, endpoint, detail);
		}

	}

}
