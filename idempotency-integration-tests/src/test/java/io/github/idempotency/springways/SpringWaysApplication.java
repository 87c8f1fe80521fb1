package io.github.idempotency.springways;

import java.io.IOException;
import java.net.URI;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.context.request.async.WebAsyncTask;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.util.ContentCachingResponseWrapper;
import org.springframework.web.util.WebUtils;

import io.github.idempotency.IdempotencyContext;
import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.annotation.IdempotentSequence;

/**
 * An application that uses Spring the ordinary ways: {@code @Transactional} callers and inner
 * transactional calls, a response-logging filter that buffers, asynchronous handlers, uploads and
 * bean methods with interface return types. Every execution is a row in {@code effect}.
 */
@SpringBootApplication
public class SpringWaysApplication {

	/**
	 * A logging filter as teams write them: it buffers the response of every POST to log its size,
	 * inside the starter's filter, and copies it to the client at the end (of the last dispatch,
	 * as Spring's own {@code ShallowEtagHeaderFilter} does).
	 */
	/**
	 * Records every observation, as a tracing bridge would see them.
	 */
	@Bean
	TestObservationRegistry observationRegistry() {
		return TestObservationRegistry.create();
	}

	@Bean
	FilterRegistrationBean<OncePerRequestFilter> responseLoggingFilter() {
		OncePerRequestFilter filter = new OncePerRequestFilter() {

			@Override
			protected boolean shouldNotFilter(HttpServletRequest request) {
				return !"POST".equals(request.getMethod());
			}

			@Override
			protected boolean shouldNotFilterAsyncDispatch() {
				return false;
			}

			@Override
			protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response,
					FilterChain chain) throws ServletException, IOException {
				ContentCachingResponseWrapper caching = WebUtils.getNativeResponse(response,
						ContentCachingResponseWrapper.class);
				if (caching == null) {
					caching = new ContentCachingResponseWrapper(response);
				}
				try {
					chain.doFilter(request, caching);
				}
				finally {
					if (!request.isAsyncStarted()) {
						this.logger.debug("Answered " + caching.getContentSize() + " bytes");
						caching.copyBodyToResponse();
					}
				}
			}

		};
		FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(filter);
		registration.setOrder(Ordered.LOWEST_PRECEDENCE);
		return registration;
	}

	/**
	 * The outermost filter: records what propagates out of the filter chain to the container.
	 */
	@Bean
	FilterRegistrationBean<OncePerRequestFilter> failureRecordingFilter(Failures failures) {
		OncePerRequestFilter filter = new OncePerRequestFilter() {

			@Override
			protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response,
					FilterChain chain) throws ServletException, IOException {
				try {
					chain.doFilter(request, response);
				}
				catch (ServletException | IOException | RuntimeException ex) {
					failures.record(request.getRequestURI(), ex);
					throw ex;
				}
			}

		};
		FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(filter);
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		return registration;
	}

	@Bean
	Failures failures() {
		return new Failures();
	}

	/**
	 * What reached the container, by request path.
	 */
	public static class Failures {

		private final Map<String, Throwable> failures = new ConcurrentHashMap<>();

		void record(String path, Throwable failure) {
			this.failures.put(path, failure);
		}

		public Throwable failure(String path) {
			return this.failures.get(path);
		}

	}

	@Bean
	Effects effects(JdbcTemplate jdbc) {
		return new Effects(jdbc);
	}

	@Bean
	Gate gate() {
		return new Gate();
	}

	/**
	 * Records effects as rows of {@code effect}.
	 */
	public static class Effects {

		private final JdbcTemplate jdbc;

		Effects(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		public long record(String endpoint, String detail) {
			return this.jdbc.queryForObject("INSERT INTO effect (endpoint, detail) VALUES (?, ?) RETURNING id",
					Long.class, endpoint, detail);
		}

		public long count(String endpoint, String detail) {
			return this.jdbc.queryForObject("SELECT count(*) FROM effect WHERE endpoint = ? AND detail = ?",
					Long.class, endpoint, detail);
		}

	}

	/**
	 * Holds executions until a test lets them go.
	 */
	public static class Gate {

		private final AtomicInteger entered = new AtomicInteger();

		private volatile CountDownLatch open = new CountDownLatch(0);

		private final AtomicInteger finalFailures = new AtomicInteger();

		public void close() {
			this.entered.set(0);
			this.open = new CountDownLatch(1);
		}

		public void open() {
			this.open.countDown();
		}

		public int entered() {
			return this.entered.get();
		}

		/**
		 * Make the next executions of {@code /atomic-gated} fail with a final error.
		 * @param executions how many
		 */
		public void failNextFinally(int executions) {
			this.finalFailures.set(executions);
		}

		boolean shouldFailFinally() {
			return this.finalFailures.getAndUpdate((n) -> Math.max(0, n - 1)) > 0;
		}

		void pass() {
			CountDownLatch latch = this.open;
			this.entered.incrementAndGet();
			try {
				if (!latch.await(60, TimeUnit.SECONDS)) {
					throw new IllegalStateException("The test never opened the gate");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}

	}

	/**
	 * A transactional service called from an ATOMIC handler.
	 */
	@Service
	public static class InnerService {

		private final Effects effects;

		InnerService(Effects effects) {
			this.effects = effects;
		}

		@Transactional
		public void writeAndFail(String detail) {
			this.effects.record("inner", detail);
			throw new IllegalStateException("the inner write is not allowed");
		}

		@Transactional(propagation = Propagation.REQUIRES_NEW)
		public void writeOnItsOwn(String detail) {
			this.effects.record("requires-new", detail);
		}

	}

	@RestController
	static class HandlersController {

		private final Effects effects;

		private final InnerService inner;

		private final Gate gate;

		private final ObservationRegistry observations;

		private final Executor executor = Executors.newCachedThreadPool();

		HandlersController(Effects effects, InnerService inner, Gate gate, ObservationRegistry observations) {
			this.effects = effects;
			this.inner = inner;
			this.gate = gate;
			this.observations = observations;
		}

		@Idempotent(operation = "swallowed", mode = IdempotencyMode.ATOMIC)
		@PostMapping("/swallowed")
		ResponseEntity<Map<String, Object>> swallowed(@RequestBody Map<String, Object> body) {
			String value = String.valueOf(body.get("value"));
			long id = this.effects.record("swallowed", value);
			try {
				this.inner.writeAndFail(value);
			}
			catch (IllegalStateException ex) {
				// Caught, as handlers do, and answered as a success.
			}
			return ResponseEntity.created(URI.create("/swallowed/" + id)).body(Map.of("id", id));
		}

		@Idempotent(operation = "logged")
		@PostMapping("/logged")
		ResponseEntity<Map<String, Object>> logged(@RequestBody Map<String, Object> body) {
			long id = this.effects.record("logged", String.valueOf(body.get("value")));
			return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("id", id, "value", body.get("value")));
		}

		@Idempotent(operation = "observed")
		@PostMapping("/observed")
		Map<String, Object> observed(@RequestBody Map<String, Object> body) {
			Observation current = this.observations.getCurrentObservation();
			long id = this.effects.record("observed", String.valueOf(body.get("value")));
			return Map.of("id", id, "observedAs", (current != null) ? current.getContext().getName() : "nothing");
		}

		@Idempotent(operation = "logged-atomic", mode = IdempotencyMode.ATOMIC)
		@PostMapping("/logged-atomic")
		ResponseEntity<Map<String, Object>> loggedAtomic(@RequestBody Map<String, Object> body) {
			long id = this.effects.record("logged-atomic", String.valueOf(body.get("value")));
			return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("id", id, "value", body.get("value")));
		}

		@Idempotent(operation = "uploads")
		@PostMapping(path = "/uploads", consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
		Map<String, Object> upload(@RequestParam String title, @RequestParam MultipartFile file) throws IOException {
			String digest = sha256(file.getBytes());
			long id = this.effects.record("uploads", title);
			return Map.of("id", id, "title", title, "sha256", digest);
		}

		@Idempotent(operation = "raw")
		@PostMapping("/raw")
		Map<String, Object> raw(@RequestBody String body, @RequestParam String detail) {
			long id = this.effects.record("raw", detail);
			return Map.of("id", id, "length", body.length());
		}

		@Idempotent(operation = "routes")
		@PostMapping("/routes")
		Map<String, Object> route(@RequestParam List<String> via, @RequestBody Map<String, Object> body) {
			long id = this.effects.record("routes", String.valueOf(body.get("value")));
			return Map.of("id", id, "via", via);
		}

		@Idempotent(operation = "payees")
		@PostMapping("/payees")
		ResponseEntity<Map<String, Object>> payee(@RequestBody Map<String, Object> body) {
			long id = this.effects.record("payees", String.valueOf(body.get("value")));
			return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("id", id, "payee", body.get("payee")));
		}

		@Idempotent(operation = "fingerprinted", fingerprint = "#body['value']")
		@PostMapping("/fingerprinted")
		Map<String, Object> fingerprinted(@RequestBody Map<String, Object> body) {
			long id = this.effects.record("fingerprinted", String.valueOf(body.get("value")));
			return Map.of("id", id);
		}

		@Idempotent(operation = "callable")
		@PostMapping("/async/callable")
		Callable<ResponseEntity<Map<String, Object>>> callable(@RequestBody Map<String, Object> body) {
			return () -> created("callable", body);
		}

		@Idempotent(operation = "future")
		@PostMapping("/async/future")
		CompletableFuture<ResponseEntity<Map<String, Object>>> future(@RequestBody Map<String, Object> body) {
			return CompletableFuture.supplyAsync(() -> created("future", body), this.executor);
		}

		@Idempotent(operation = "deferred")
		@PostMapping("/async/deferred")
		DeferredResult<ResponseEntity<Map<String, Object>>> deferred(@RequestBody Map<String, Object> body) {
			DeferredResult<ResponseEntity<Map<String, Object>>> result = new DeferredResult<>();
			this.executor.execute(() -> result.setResult(created("deferred", body)));
			return result;
		}

		@Idempotent(operation = "web-async-task")
		@PostMapping("/async/task")
		WebAsyncTask<ResponseEntity<Map<String, Object>>> task(@RequestBody Map<String, Object> body) {
			return new WebAsyncTask<>(10_000L, () -> created("web-async-task", body));
		}

		@Idempotent(operation = "future-failing")
		@PostMapping("/async/failing")
		CompletableFuture<Map<String, Object>> failing(@RequestBody Map<String, Object> body) {
			return CompletableFuture.supplyAsync(() -> {
				this.effects.record("future-failing", String.valueOf(body.get("value")));
				throw new IllegalStateException("the downstream call failed");
			}, this.executor);
		}

		/**
		 * Answers 503 to the first runs of each value, as many as the request's {@code failures},
		 * as a handler whose downstream service is briefly down; then 201.
		 */
		@Idempotent(operation = "flaky")
		@PostMapping("/flaky")
		ResponseEntity<Map<String, Object>> flaky(@RequestBody Map<String, Object> body) {
			String value = String.valueOf(body.get("value"));
			long id = this.effects.record("flaky", value);
			if (this.effects.count("flaky", value) <= ((Number) body.get("failures")).intValue()) {
				return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).body(Map.of("retry", true));
			}
			return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("id", id, "value", value));
		}

		@Idempotent(operation = "slow")
		@PostMapping("/slow")
		Map<String, Object> slow(@RequestBody Map<String, Object> body) {
			this.gate.pass();
			IdempotencyContext.require().checkLease();
			return Map.of("id", this.effects.record("slow", String.valueOf(body.get("value"))));
		}

		@Idempotent(operation = "gated")
		@PostMapping("/gated")
		Map<String, Object> gated(@RequestBody Map<String, Object> body) {
			this.gate.pass();
			return Map.of("id", this.effects.record("gated", String.valueOf(body.get("value"))));
		}

		@Idempotent(operation = "waiting")
		@PostMapping("/waiting")
		Map<String, Object> waiting(@RequestBody Map<String, Object> body) {
			this.gate.pass();
			return Map.of("id", this.effects.record("waiting", String.valueOf(body.get("value"))));
		}

		/**
		 * Fails with a final 422 while {@link Gate#failNextFinally} says so, as a declined card
		 * would, after writing.
		 */
		@Idempotent(operation = "atomic-gated", mode = IdempotencyMode.ATOMIC)
		@PostMapping("/atomic-gated")
		ResponseEntity<Map<String, Object>> atomicGated(@RequestBody Map<String, Object> body) {
			long id = this.effects.record("atomic-gated", String.valueOf(body.get("value")));
			this.gate.pass();
			if (this.gate.shouldFailFinally()) {
				throw new ResponseStatusException(HttpStatus.UNPROCESSABLE_ENTITY, "declined");
			}
			return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("id", id));
		}

		@GetMapping("/streamed-then-failed")
		void streamedThenFailed(HttpServletResponse response) throws IOException {
			response.setContentType("text/plain");
			response.getOutputStream().write(new byte[16 * 1024]);
			response.flushBuffer();
			throw new IllegalStateException("failure after streaming: original-cause-7f3a");
		}

		private ResponseEntity<Map<String, Object>> created(String endpoint, Map<String, Object> body) {
			String value = String.valueOf(body.get("value"));
			long id = this.effects.record(endpoint, value);
			return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("id", id, "value", value));
		}

		private static String sha256(byte[] bytes) {
			try {
				return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
			}
			catch (NoSuchAlgorithmException ex) {
				throw new IllegalStateException(ex);
			}
		}

	}


	/**
	 * Updates of a session's cart ordered by a sequence number per session, ATOMIC: each accepted
	 * update is a row of {@code session_update}, appended in the transaction that advanced the
	 * session's highest number.
	 */
	@RestController
	static class SessionsController {

		private final JdbcTemplate jdbc;

		SessionsController(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		@Idempotent(operation = "session-cart", mode = IdempotencyMode.ATOMIC,
				key = "'session_update:' + #id + ':cart:' + #update['sequence']")
		@IdempotentSequence(scope = "#id + ':cart'", value = "#update['sequence']")
		@PatchMapping("/sessions/{id}/cart")
		Map<String, Object> updateCart(@PathVariable String id, @RequestBody Map<String, Object> update) {
			long sequence = ((Number) update.get("sequence")).longValue();
			long applied = this.jdbc.queryForObject(
					"INSERT INTO session_update (session_id, sequence, item) VALUES (?, ?, ?) RETURNING id", Long.class,
					id, sequence, String.valueOf(update.get("item")));
			return Map.of("session", id, "sequence", sequence, "applied", applied);
		}

	}

	/**
	 * Postings to an account ordered by a sequence number per account, as a message listener
	 * makes them: LEASED bean methods.
	 */
	@Service
	public static class SequencedPostings {

		private final Effects effects;

		SequencedPostings(Effects effects) {
			this.effects = effects;
		}

		@Idempotent(operation = "sequenced-posting", key = "'posting:' + #account + ':' + #sequence")
		@IdempotentSequence(scope = "#account", value = "#sequence")
		public String post(String account, long sequence) {
			this.effects.record("sequenced-posting", account + ":" + sequence);
			return "posted " + sequence + " to " + account;
		}

	}


	/**
	 * Charges through a payment gateway, whose transaction id is attached to the key as soon as the
	 * gateway answers; a charge may then fail transiently, or, ATOMIC, roll back.
	 */
	@RestController
	static class ChargesController {

		private final Effects effects;

		ChargesController(Effects effects) {
			this.effects = effects;
		}

		@Idempotent(operation = "charges")
		@PostMapping("/charges")
		ResponseEntity<Map<String, Object>> charge(@RequestBody Map<String, Object> body) {
			String transaction = gatewayCharge(body);
			if (Boolean.TRUE.equals(body.get("failAfterCharge"))) {
				return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).body(Map.of("retry", true));
			}
			return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("transaction", transaction));
		}

		@Idempotent(operation = "atomic-charges", mode = IdempotencyMode.ATOMIC)
		@PostMapping("/atomic-charges")
		Map<String, Object> chargeAtomically(@RequestBody Map<String, Object> body) {
			String transaction = gatewayCharge(body);
			this.effects.record("atomic-charges", transaction);
			throw new IllegalStateException("the ledger write failed after the charge");
		}

		@Idempotent(operation = "atomic-receipts", mode = IdempotencyMode.ATOMIC)
		@PostMapping("/atomic-receipts")
		ResponseEntity<Map<String, Object>> receiptAtomically(@RequestBody Map<String, Object> body) {
			String transaction = "gw-" + body.get("value");
			IdempotencyContext.require().reference("gateway_transaction", transaction);
			this.effects.record("atomic-receipts", transaction);
			return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("transaction", transaction));
		}

		private String gatewayCharge(Map<String, Object> body) {
			String transaction = "gw-" + body.get("value") + "-" + this.effects.record("gateway", "charge");
			IdempotencyContext.require().reference("gateway_transaction", transaction);
			return transaction;
		}

	}

}
