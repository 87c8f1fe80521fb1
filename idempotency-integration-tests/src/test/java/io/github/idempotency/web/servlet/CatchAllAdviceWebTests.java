package io.github.idempotency.web.servlet;

import java.net.http.HttpResponse;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import io.github.idempotency.IdempotencyProblemCustomizer;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter's refusals reach the client as specified behind an application's catch-all
 * {@code @ExceptionHandler(Exception.class)}, which never sees them; an application shapes their
 * body through an {@link IdempotencyProblemCustomizer}.
 */
class CatchAllAdviceWebTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webcatchall");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		WebTestSupport.register(registry, database);
	}

	@Nested
	@SpringBootTest(classes = { WebTestApplication.class, PlainCatchAll.class },
			webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
			properties = "idempotency.max-body-size=2KB")
	class BehindAPlainCatchAllHandler extends Refusals {

	}

	@Nested
	@SpringBootTest(classes = { WebTestApplication.class, ResponseEntityCatchAll.class },
			webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
			properties = "idempotency.max-body-size=2KB")
	class BehindAResponseEntityExceptionHandler extends Refusals {

	}

	abstract static class Refusals {

		@LocalServerPort
		int port;

		@Autowired
		JdbcTemplate jdbc;

		@Autowired
		WebTestApplication.Gate gate;

		@Autowired
		AtomicInteger catchAllCalls;

		@AfterEach
		void openGate() {
			this.gate.open();
		}

		@Test
		void aMissingKeyIs400() {
			HttpResponse<byte[]> response = http().post("/effects").json(json(unique())).send();
			assertProblem(response, 400, "missing-key");
		}

		@Test
		void aKeySentTwiceIs400() {
			HttpResponse<byte[]> response = http().post("/effects").key("a").key("b").json(json(unique())).send();
			assertProblem(response, 400, "invalid-key");
		}

		@Test
		void aMalformedBodyIs400() {
			HttpResponse<byte[]> response = http().post("/effects").key(unique()).json("{\"a\":1,\"a\":2}").send();
			assertProblem(response, 400, "malformed-body");
		}

		@Test
		void aBodyOverTheLimitIs413() {
			HttpResponse<byte[]> response = http().post("/effects")
				.key(unique())
				.json("{\"padding\":\"" + "x".repeat(4096) + "\"}")
				.send();
			assertProblem(response, 413, "body-too-large");
		}

		@Test
		void anUnusableTenantIs400() {
			HttpResponse<byte[]> response = http().post("/effects")
				.key(unique())
				.header("X-Tenant-Id", "acme|principal:alice")
				.json(json(unique()))
				.send();
			assertProblem(response, 400, "invalid-tenant");
		}

		@Test
		void aKeyInProgressIs409WithRetryAfter() throws Exception {
			String value = unique();
			this.gate.close();
			CompletableFuture<HttpResponse<byte[]>> first = CompletableFuture
				.supplyAsync(() -> http().post("/effects").key(value).json(json(value)).send());
			assertThat(this.gate.awaitEntered()).isTrue();
			HttpResponse<byte[]> duplicate = http().post("/effects").key(value).json(json(value)).send();
			this.gate.open();
			assertProblem(duplicate, 409, "in-progress");
			assertThat(duplicate.headers().firstValue("Retry-After")).isPresent();
			assertThat(first.get().statusCode()).isEqualTo(201);
		}

		@Test
		void aKeyReusedForAnotherRequestIs422AndAReplayStaysAReplay() {
			String value = unique();
			HttpResponse<byte[]> first = http().post("/effects").key(value).json(json(value)).send();
			HttpResponse<byte[]> replay = http().post("/effects").key(value).json(json(value)).send();
			HttpResponse<byte[]> other = http().post("/effects").key(value).json(json(value + "-other")).send();
			assertThat(first.statusCode()).isEqualTo(201);
			assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
			assertThat(replay.body()).isEqualTo(first.body());
			assertProblem(other, 422, "key-reused");
			assertThat(this.jdbc.queryForObject("SELECT count(*) FROM effect WHERE endpoint = 'effects' AND detail = ?",
					Long.class, value)).isOne();
		}

		@Test
		void aCustomizerShapesTheBodyButNotTheContract() {
			HttpResponse<byte[]> response = http().post("/effects").json(json(unique())).send();
			assertThat(Http.text(response)).contains("\"errorCode\":\"IDEMPOTENCY\"")
				.contains("\"title\":\"Idempotency-Key required\"");
		}

		void assertProblem(HttpResponse<byte[]> response, int status, String type) {
			assertThat(response.statusCode()).isEqualTo(status);
			assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
			assertThat(Http.text(response)).contains("\"type\":\"urn:problem-type:idempotency:" + type + "\"")
				.contains("\"status\":" + status);
			assertThat(this.catchAllCalls).as("calls of the application's catch-all handler").hasValue(0);
		}

		Http http() {
			return new Http(this.port);
		}

		static String unique() {
			return UUID.randomUUID().toString();
		}

		static String json(String value) {
			return "{\"value\":\"" + value + "\"}";
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Customization {

		@Bean
		AtomicInteger catchAllCalls() {
			return new AtomicInteger();
		}

		@Bean
		IdempotencyProblemCustomizer errorCode() {
			return (problem, exception) -> {
				problem.setProperty("errorCode", "IDEMPOTENCY");
				if (problem.getType().toString().endsWith("missing-key")) {
					problem.setTitle("Idempotency-Key required");
				}
				// A customizer cannot move the contract: type and status stay.
				problem.setType(java.net.URI.create("about:blank"));
				problem.setStatus(500);
			};
		}

	}

	/**
	 * The catch-all most applications have: every exception becomes a 500 and an ERROR log line.
	 */
	@ControllerAdvice
	@TestConfiguration(proxyBeanMethods = false)
	@org.springframework.context.annotation.Import(Customization.class)
	static class PlainCatchAll {

		private final AtomicInteger calls;

		PlainCatchAll(AtomicInteger catchAllCalls) {
			this.calls = catchAllCalls;
		}

		@ExceptionHandler(Exception.class)
		ResponseEntity<String> handle(Exception ex) {
			this.calls.incrementAndGet();
			return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR).body("{\"error\":\"internal\"}");
		}

	}

	/**
	 * The catch-all of applications that build on Spring's {@link ResponseEntityExceptionHandler}.
	 */
	@ControllerAdvice
	@TestConfiguration(proxyBeanMethods = false)
	@org.springframework.context.annotation.Import(Customization.class)
	static class ResponseEntityCatchAll extends ResponseEntityExceptionHandler {

		private final AtomicInteger calls;

		ResponseEntityCatchAll(AtomicInteger catchAllCalls) {
			this.calls = catchAllCalls;
		}

		@ExceptionHandler(Exception.class)
		ResponseEntity<ProblemDetail> handleAll(Exception ex) {
			this.calls.incrementAndGet();
			return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR)
				.body(ProblemDetail.forStatus(HttpStatus.INTERNAL_SERVER_ERROR));
		}

	}

}
