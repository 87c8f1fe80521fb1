package io.github.idempotency.redisweb;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import io.github.idempotency.IdempotencyContext;
import io.github.idempotency.annotation.Idempotent;

/**
 * A web application whose idempotency records are in Redis and which has no database: every
 * execution of its payment endpoint increments a counter in Redis, so that tests count effects
 * across instances.
 */
@SpringBootApplication(excludeName = { "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
		"org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration",
		"org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration" })
public class RedisWebApplication {

	@Bean
	Gate gate() {
		return new Gate();
	}

	/**
	 * Effects of the payment endpoint, counted in Redis.
	 */
	static String effectsKey(String value) {
		return "effects:{" + value + "}";
	}

	@RestController
	static class PaymentsController {

		private final StringRedisTemplate redis;

		private final Gate gate;

		PaymentsController(StringRedisTemplate redis, Gate gate) {
			this.redis = redis;
			this.gate = gate;
		}

		@Idempotent
		@PostMapping("/payments")
		ResponseEntity<Map<String, Object>> create(@RequestBody Map<String, Object> payment) {
			this.gate.pass();
			String value = String.valueOf(payment.get("value"));
			Long effect = this.redis.opsForValue().increment(effectsKey(value));
			String id = UUID.randomUUID().toString();
			return ResponseEntity.created(URI.create("/payments/" + id))
				.body(Map.of("id", id, "value", value, "effect", effect));
		}

		/**
		 * Charges through a payment gateway, whose transaction id is attached to the key as soon
		 * as the gateway answers.
		 */
		@Idempotent(operation = "charges")
		@PostMapping("/charges")
		ResponseEntity<Map<String, Object>> charge(@RequestBody Map<String, Object> charge) {
			String transaction = "gw-" + charge.get("value") + "-" + UUID.randomUUID();
			IdempotencyContext.require().reference("gateway_transaction", transaction);
			return ResponseEntity.status(201).body(Map.of("transaction", transaction));
		}

		/**
		 * Answers 503 to the first runs of each value, as many as the request's {@code failures};
		 * then 201.
		 */
		@Idempotent(operation = "flaky")
		@PostMapping("/flaky")
		ResponseEntity<Map<String, Object>> flaky(@RequestBody Map<String, Object> payment) {
			String value = String.valueOf(payment.get("value"));
			Long runs = this.redis.opsForValue().increment(effectsKey(value));
			if (runs == null || runs <= ((Number) payment.get("failures")).intValue()) {
				return ResponseEntity.status(503).body(Map.of("retry", true));
			}
			return ResponseEntity.status(201).body(Map.of("value", value, "runs", runs));
		}

	}

	/**
	 * Holds executions of the payment endpoint while closed, so that tests send duplicates of a
	 * request in progress.
	 */
	static class Gate {

		private volatile CountDownLatch open = new CountDownLatch(0);

		private final AtomicInteger entered = new AtomicInteger();

		void close() {
			this.entered.set(0);
			this.open = new CountDownLatch(1);
		}

		void open() {
			this.open.countDown();
		}

		int entered() {
			return this.entered.get();
		}

		void pass() {
			this.entered.incrementAndGet();
			try {
				if (!this.open.await(Duration.ofSeconds(60).toMillis(), TimeUnit.MILLISECONDS)) {
					throw new IllegalStateException("The gate was never opened");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}

	}

}
