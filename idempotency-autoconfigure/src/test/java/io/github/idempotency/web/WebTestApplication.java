package io.github.idempotency.web;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.core.IdempotencyContext;

/**
 * A small application whose endpoints record each execution as a row in {@code effect}, so that
 * tests count effects in the database.
 */
@SpringBootApplication
public class WebTestApplication {

	@RestController
	static class EffectController {

		private final JdbcTemplate jdbc;

		final AtomicInteger transientFailuresLeft = new AtomicInteger();

		volatile CountDownLatch entered = new CountDownLatch(0);

		volatile CountDownLatch release = new CountDownLatch(0);

		EffectController(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		@Idempotent
		@PostMapping("/effects")
		ResponseEntity<Map<String, Object>> create(@RequestBody Map<String, Object> body,
				HttpServletResponse response) throws InterruptedException {
			this.entered.countDown();
			if (!this.release.await(30, TimeUnit.SECONDS)) {
				throw new IllegalStateException("Test did not release the request");
			}
			if (this.transientFailuresLeft.getAndDecrement() > 0) {
				throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "try again");
			}
			long id = record("effects", body.toString());
			response.addHeader("Set-Cookie", "session=secret");
			response.addHeader("X-Request-Trace", "trace-" + id);
			return ResponseEntity.created(URI.create("/effects/" + id))
				.body(Map.of("id", id, "echo", body, "token", IdempotencyContext.require().fencingToken().toString()));
		}

		@Idempotent(operation = "refunds")
		@PostMapping("/refunds/{id}")
		ResponseEntity<Map<String, Object>> refund(@PathVariable long id, @RequestBody Map<String, Object> body) {
			if (((Number) body.getOrDefault("amount", 0)).longValue() <= 0) {
				throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "amount must be positive");
			}
			long effect = record("refunds", "refund " + id);
			return ResponseEntity.ok(Map.of("refund", effect));
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
		void sentError(HttpServletResponse response) throws java.io.IOException {
			record("sent-errors", "x");
			response.sendError(404, "nothing here");
		}

		private long record(String endpoint, String detail) {
			return this.jdbc.queryForObject("INSERT INTO effect (endpoint, detail) VALUES (?, ?) RETURNING id",
					Long.class, endpoint, detail);
		}

	}

}
