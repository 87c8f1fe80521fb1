package io.github.idempotency.web.reactive;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.observation.tck.TestObservationRegistry;
import org.slf4j.MDC;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;
import reactor.core.scheduler.Schedulers;

import io.github.idempotency.IdempotencyListener;
import io.github.idempotency.Outcome;
import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.jdbc.JdbcIdempotencyStore;
import io.github.idempotency.store.NonBlockingIdempotencyStore;
import io.github.idempotency.web.servlet.WebTestApplication.Gate;

/**
 * The endpoints of the Spring MVC test application on Spring WebFlux: each execution is a row in
 * {@code effect}, written off the event loop, so that tests count effects in the database.
 */
@SpringBootApplication
public class ReactiveWebTestApplication {

	@Bean
	Gate gate() {
		return new Gate();
	}

	@Bean
	RouterFunction<ServerResponse> routedPayments(IdempotentRoutes idempotentRoutes, JdbcTemplate jdbc) {
		return RouterFunctions.route()
			.POST("/routed", (request) -> request.bodyToMono(Map.class)
				.flatMap((body) -> Mono.fromCallable(() -> jdbc.queryForObject(
						"INSERT INTO effect (endpoint, detail) VALUES ('routed', ?) RETURNING id", Long.class,
						String.valueOf(body.get("value"))))
					.subscribeOn(Schedulers.boundedElastic()))
				.zipWith(ReactiveIdempotencyContext.require())
				.flatMap((created) -> ServerResponse.created(URI.create("/routed/" + created.getT1()))
					.bodyValue(Map.of("id", created.getT1(), "token", created.getT2().fencingToken().toString()))))
			.filter(idempotentRoutes.operation("routed"))
			.build();
	}

	@Bean
	TestObservationRegistry observationRegistry() {
		return TestObservationRegistry.create();
	}

	@Bean
	Outcomes outcomes() {
		return new Outcomes();
	}

	@Bean
	static BeanPostProcessor heldClaimStore() {
		return new BeanPostProcessor() {

			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				if (bean instanceof NonBlockingIdempotencyStore store) {
					return new HeldNonBlockingClaimStore(store);
				}
				return (bean instanceof JdbcIdempotencyStore store) ? new HeldClaimStore(store) : bean;
			}

		};
	}

	@Bean
	Cancellations cancellations() {
		return new Cancellations();
	}

	/**
	 * Counts requests cancelled by their client, as the outermost web filter sees them once the
	 * cancellation has gone through the whole chain.
	 */
	static class Cancellations implements WebFilter, Ordered {

		private final AtomicInteger cancelled = new AtomicInteger();

		@Override
		public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
			return chain.filter(exchange).doFinally((signal) -> {
				if (signal == SignalType.CANCEL) {
					this.cancelled.incrementAndGet();
				}
			});
		}

		int cancelled() {
			return this.cancelled.get();
		}

		@Override
		public int getOrder() {
			return Ordered.HIGHEST_PRECEDENCE;
		}

	}

	/**
	 * Records how each call ended, by operation.
	 */
	static class Outcomes implements IdempotencyListener {

		private final Queue<String> ended = new ConcurrentLinkedQueue<>();

		private final Set<String> threads = ConcurrentHashMap.newKeySet();

		@Override
		public void onExecutionStarted(String operation, boolean takenOver) {
			this.threads.add(Thread.currentThread().getName());
		}

		@Override
		public void onOutcome(String operation, Outcome outcome) {
			this.ended.add(operation + ":" + outcome);
			this.threads.add(Thread.currentThread().getName());
		}

		/**
		 * Return the names of the threads on which claims were decided and calls ended.
		 */
		Set<String> threads() {
			return Set.copyOf(this.threads);
		}

		boolean contains(String operation, Outcome outcome) {
			return this.ended.contains(operation + ":" + outcome);
		}

	}

	@RestController
	public static class EffectController {

		private final JdbcTemplate jdbc;

		private final Gate gate;

		private final AtomicInteger slowStarted = new AtomicInteger();

		EffectController(JdbcTemplate jdbc, Gate gate) {
			this.jdbc = jdbc;
			this.gate = gate;
		}

		@Idempotent
		@PostMapping("/effects")
		Mono<ResponseEntity<Map<String, Object>>> create(@RequestBody Map<String, Object> body) {
			return ReactiveIdempotencyContext.require().flatMap((context) -> blocking(() -> {
				this.gate.pass();
				if (this.gate.shouldFail()) {
					throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "try again");
				}
				long id = record("effects", String.valueOf(body.get("value")));
				return ResponseEntity.created(URI.create("/effects/" + id))
					.header("Set-Cookie", "session=secret")
					.header("X-Request-Trace", "trace-" + id)
					.body(Map.<String, Object>of("id", id, "value", String.valueOf(body.get("value")), "token",
							context.fencingToken().toString()));
			}));
		}

		@Idempotent(operation = "waiting")
		@PostMapping("/waiting")
		Mono<Map<String, Object>> waiting(@RequestBody Map<String, Object> body) {
			return blocking(() -> {
				this.gate.pass();
				if (this.gate.shouldFail()) {
					throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "try again");
				}
				return Map.of("id", record("waiting", String.valueOf(body.get("value"))));
			});
		}

		/**
		 * Work that may outlast its request (accept-after, set by the tests that use it): it passes
		 * the gate, fails when told to, refuses the value {@code refuse} with a final 422.
		 */
		@Idempotent(operation = "reports")
		@PostMapping("/reports")
		Mono<ResponseEntity<Map<String, Object>>> report(@RequestBody Map<String, Object> body) {
			return blocking(() -> {
				this.gate.pass();
				if (this.gate.shouldFail()) {
					throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "try again");
				}
				if ("refuse".equals(body.get("value"))) {
					throw new ResponseStatusException(HttpStatus.UNPROCESSABLE_ENTITY, "cannot report this");
				}
				long id = record("reports", String.valueOf(body.get("value")));
				return ResponseEntity.created(URI.create("/reports/" + id))
					.body(Map.<String, Object>of("id", id, "value", String.valueOf(body.get("value"))));
			});
		}

		@Idempotent(operation = "refunds")
		@PostMapping("/refunds/{id}")
		Mono<Map<String, Object>> refund(@PathVariable long id, @RequestBody Map<String, Object> body,
				@RequestHeader("Idempotency-Key") String key) {
			if (((Number) body.getOrDefault("amount", 0)).longValue() <= 0) {
				return Mono.error(new ResponseStatusException(HttpStatus.BAD_REQUEST, "amount must be positive"));
			}
			return blocking(() -> Map.of("refund", record("refunds", "refund " + id)));
		}

		@Idempotent(operation = "events", key = "'event:' + #eventId")
		@PostMapping("/events")
		Mono<Map<String, Object>> event(@RequestHeader("X-Event-Id") String eventId, @RequestBody String payload) {
			return blocking(() -> Map.of("handled", record("events", eventId)));
		}

		@Idempotent(operation = "optional", required = false)
		@PostMapping("/optional")
		Mono<Map<String, Object>> optional() {
			return blocking(() -> Map.of("effect", record("optional", "optional")));
		}

		@Idempotent(operation = "sent-errors")
		@PostMapping("/sent-errors")
		Mono<ResponseEntity<Void>> sentError() {
			return blocking(() -> {
				record("sent-errors", "x");
				return ResponseEntity.notFound().build();
			});
		}

		@Idempotent(operation = "lines")
		@PostMapping("/lines")
		Flux<String> lines(@RequestBody Map<String, Object> body) {
			return blocking(() -> record("lines", String.valueOf(body.get("value"))))
				.flatMapMany((id) -> Flux.just("line-1 of " + id, "line-2 of " + id));
		}

		@Idempotent(operation = "slow")
		@PostMapping("/slow")
		Mono<Map<String, Object>> slow(@RequestBody Map<String, Object> body,
				@RequestHeader(name = "X-Delay-Millis", defaultValue = "0") long delay) {
			return Mono.defer(() -> {
				this.slowStarted.incrementAndGet();
				return Mono.delay(Duration.ofMillis(delay));
			}).then(blocking(() -> Map.of("id", record("slow", String.valueOf(body.get("value"))))));
		}

		int slowStarted() {
			return this.slowStarted.get();
		}

		@Idempotent(operation = "admin-refunds")
		@PreAuthorize("hasRole('ADMIN')")
		@PostMapping("/admin-refunds")
		Mono<Map<String, Object>> adminRefund(@RequestBody Map<String, Object> body) {
			return blocking(() -> Map.of("refund", record("admin-refunds", String.valueOf(body.get("value")))));
		}

		/**
		 * Reads a file, a blocking call, on a thread that must not block: BlockHound refuses it.
		 */
		@Idempotent(operation = "event-loop")
		@PostMapping("/event-loop")
		Mono<String> blocksANonBlockingThread() {
			return Mono.just("read").publishOn(Schedulers.parallel()).map((value) -> {
				try (FileInputStream file = new FileInputStream("/dev/null")) {
					return value + " " + file.read(new byte[1]);
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			});
		}

		/**
		 * Answers the MDC entries its work sees on a thread of Reactor's parallel scheduler.
		 */
		@Idempotent(operation = "logged")
		@PostMapping("/logged")
		Mono<Map<String, String>> logged() {
			return Mono.delay(Duration.ofMillis(1)).map((tick) -> diagnosticContext());
		}

		/**
		 * Answers the same, unguarded.
		 */
		@PostMapping("/unlogged")
		Mono<Map<String, String>> unlogged() {
			return Mono.delay(Duration.ofMillis(1)).map((tick) -> diagnosticContext());
		}

		private static Map<String, String> diagnosticContext() {
			return Map.of("operation", String.valueOf(MDC.get("idempotency.operation")), "key",
					String.valueOf(MDC.get("idempotency.key")), "thread", Thread.currentThread().getName());
		}

		private long record(String endpoint, String detail) {
			return this.jdbc.queryForObject("INSERT INTO effect (endpoint, detail) VALUES (?, ?) RETURNING id",
					Long.class, endpoint, detail);
		}

		private static <T> Mono<T> blocking(java.util.concurrent.Callable<T> work) {
			return Mono.fromCallable(work).subscribeOn(Schedulers.boundedElastic());
		}

	}

}
