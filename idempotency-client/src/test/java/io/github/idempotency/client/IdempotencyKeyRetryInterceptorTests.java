package io.github.idempotency.client;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import io.github.idempotency.client.TestServer.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link IdempotencyKeyRetryInterceptor} against a real HTTP server on loopback.
 */
class IdempotencyKeyRetryInterceptorTests {

	private static final String PAYMENT = "{\"amount\":1000,\"currency\":\"EUR\"}";

	private final RecordingSleeper sleeper = new RecordingSleeper();

	private final List<RetryAttempt> attempts = new CopyOnWriteArrayList<>();

	private TestServer server;

	@AfterEach
	void stopServer() {
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	void aServerThatFailsWith503TwiceThenSucceedsGetsOneKeyOnAllThreeAttemptsAndTakesEffectOnce() throws IOException {
		Map<String, Reply> stored = new ConcurrentHashMap<>();
		this.server = TestServer.start((request, server) -> {
			Reply replay = stored.get(request.key());
			if (replay != null) {
				return replay.withHeader("Idempotent-Replayed", "true");
			}
			if (request.number() <= 2) {
				return Reply.of(503, "database unavailable");
			}
			server.recordEffect(request.key());
			Reply created = Reply.of(201, "payment pay_1");
			stored.put(request.key(), created);
			return created;
		});
		RestClient client = client(options().build());

		ResponseEntity<String> response = postPayment(client);

		assertThat(response.getStatusCode().value()).isEqualTo(201);
		assertThat(response.getBody()).isEqualTo("payment pay_1");
		assertThat(this.server.received()).hasSize(3);
		String key = this.server.keysSeen().get(0);
		assertThat(this.server.keysSeen()).containsOnly(key);
		assertThat(UUID.fromString(key).version()).isEqualTo(7);
		assertThat(this.server.received()).extracting(TestServer.Received::body).containsOnly(PAYMENT);
		assertThat(this.server.effectsFor(key)).isEqualTo(1);
		assertThat(this.server.totalEffects()).isEqualTo(1);
		assertThat(this.sleeper.delays()).hasSize(2);
	}

	static Stream<Arguments> requestFactoriesWithReadTimeout() {
		Duration readTimeout = Duration.ofMillis(300);
		Supplier<ClientHttpRequestFactory> simple = () -> {
			SimpleClientHttpRequestFactory factory = new SimpleClientHttpRequestFactory();
			factory.setConnectTimeout(Duration.ofSeconds(5));
			factory.setReadTimeout(readTimeout);
			return factory;
		};
		Supplier<ClientHttpRequestFactory> jdk = () -> {
			JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory();
			factory.setReadTimeout(readTimeout);
			return factory;
		};
		return Stream.of(Arguments.of("SimpleClientHttpRequestFactory", simple),
				Arguments.of("JdkClientHttpRequestFactory", jdk));
	}

	@ParameterizedTest(name = "with {0}")
	@MethodSource("requestFactoriesWithReadTimeout")
	void aReadTimeoutIsRetriedWithTheSameKeyAndTheServerRunsTheOperationOnce(String name,
			Supplier<ClientHttpRequestFactory> requestFactory) throws IOException {
		CountDownLatch clientGaveUp = new CountDownLatch(1);
		CountDownLatch firstAttemptFinished = new CountDownLatch(1);
		Map<String, Reply> stored = new ConcurrentHashMap<>();
		this.server = TestServer.start((request, server) -> {
			Reply replay = stored.get(request.key());
			if (replay != null) {
				return replay.withHeader("Idempotent-Replayed", "true");
			}
			try {
				// the operation is slower than the client's read timeout, but it does happen
				assertThat(clientGaveUp.await(10, TimeUnit.SECONDS)).isTrue();
				server.recordEffect(request.key());
				Reply created = Reply.of(201, "payment pay_2");
				stored.put(request.key(), created);
				return created;
			}
			finally {
				firstAttemptFinished.countDown();
			}
		});
		RecordingSleeper releasingSleeper = new RecordingSleeper((delay) -> {
			clientGaveUp.countDown();
			assertThat(firstAttemptFinished.await(10, TimeUnit.SECONDS)).isTrue();
		});
		RestClient client = client(requestFactory.get(), options().sleeper(releasingSleeper).build());

		ResponseEntity<String> response = postPayment(client);

		assertThat(response.getStatusCode().value()).isEqualTo(201);
		assertThat(response.getBody()).isEqualTo("payment pay_2");
		assertThat(response.getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(this.server.received()).hasSize(2);
		String key = this.server.keysSeen().get(0);
		assertThat(this.server.keysSeen()).containsOnly(key);
		assertThat(this.server.effectsFor(key)).isEqualTo(1);
		assertThat(this.server.totalEffects()).isEqualTo(1);
		assertThat(this.attempts).hasSize(2);
		assertThat(this.attempts.get(0).status()).isNull();
		assertThat(this.attempts.get(0).exception()).isInstanceOf(IOException.class);
		assertThat(this.attempts.get(0).willRetry()).isTrue();
		assertThat(releasingSleeper.delays()).hasSize(1);
	}

	@Test
	void a409InProgressWithRetryAfterMakesTheClientWaitThatLongAndThenGetTheStoredResponse() throws IOException {
		this.server = TestServer.start((request, server) -> {
			if (request.number() == 1) {
				server.recordEffect(request.key());
				return new Reply(409, Map.of("Content-Type", "application/problem+json", "Retry-After", "1"),
						"{\"type\":\"https://idempotency.example/in-progress\",\"status\":409}");
			}
			return Reply.of(201, "payment pay_3").withHeader("Idempotent-Replayed", "true");
		});
		RestClient client = client(options().build());

		ResponseEntity<String> response = postPayment(client);

		assertThat(response.getStatusCode().value()).isEqualTo(201);
		assertThat(response.getBody()).isEqualTo("payment pay_3");
		assertThat(this.sleeper.delays()).containsExactly(Duration.ofSeconds(1));
		assertThat(this.server.received()).hasSize(2);
		String key = this.server.keysSeen().get(0);
		assertThat(this.server.keysSeen()).containsOnly(key);
		assertThat(this.server.effectsFor(key)).isEqualTo(1);
	}

	@Test
	void a202AcceptedIsFollowedToTheStoredResponseHonouringRetryAfterWithoutSendingTheRequestAgain()
			throws IOException {
		this.server = TestServer.start((request, server) -> {
			if (request.method().equals("POST")) {
				server.recordEffect(request.key());
				return accepted(202, "running").withHeader("Location", STATUS_PATH);
			}
			return (request.number() < 4) ? accepted(200, "running")
					: Reply.of(201, "payment pay_9").withHeader("Idempotent-Replayed", "true");
		});
		RestClient client = client(options().build());

		ResponseEntity<String> response = postPayment(client);

		assertThat(response.getStatusCode().value()).isEqualTo(201);
		assertThat(response.getBody()).isEqualTo("payment pay_9");
		assertThat(this.server.received()).extracting(TestServer.Received::method)
			.containsExactly("POST", "GET", "GET", "GET");
		assertThat(this.server.received()).extracting(TestServer.Received::path)
			.containsExactly("/payments", STATUS_PATH, STATUS_PATH, STATUS_PATH);
		assertThat(this.server.received().get(1).body()).isEmpty();
		assertThat(this.sleeper.delays()).containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(2),
				Duration.ofSeconds(2));
		assertThat(this.server.totalEffects()).isEqualTo(1);
	}

	@Test
	void anAcceptedWorkThatWasInterruptedIsSentAgainWithTheSameKey() throws IOException {
		this.server = TestServer.start((request, server) -> {
			if (request.method().equals("POST")) {
				server.recordEffect(request.key());
				return (request.number() == 1) ? accepted(202, "running").withHeader("Location", STATUS_PATH)
						: Reply.of(201, "payment pay_7");
			}
			return accepted(200, "interrupted");
		});
		RestClient client = client(options().build());

		ResponseEntity<String> response = postPayment(client);

		assertThat(response.getBody()).isEqualTo("payment pay_7");
		assertThat(this.server.received()).extracting(TestServer.Received::method)
			.containsExactly("POST", "GET", "POST");
		assertThat(this.server.keysSeen()).containsOnly(this.server.keysSeen().get(0));
	}

	@Test
	void whenTheAcceptedWaitRunsOutTheLastStateIsReturned() throws IOException {
		this.server = TestServer.start((request, server) -> request.method().equals("POST")
				? accepted(202, "running").withHeader("Location", STATUS_PATH) : accepted(200, "running"));
		RestClient client = client(options().acceptedWait(Duration.ofMillis(1)).build());

		ResponseEntity<String> response = postPayment(client);

		assertThat(response.getStatusCode().value()).isEqualTo(202);
		assertThat(response.getBody()).contains("\"status\":\"running\"");
		assertThat(this.server.received()).hasSize(1);
	}

	@Test
	void a202ThatIsNotTheStartersIsReturnedAsItIs() throws IOException {
		this.server = TestServer.start((request, server) -> Reply.of(202, "queued"));
		RestClient client = client(options().build());

		ResponseEntity<String> response = postPayment(client);

		assertThat(response.getStatusCode().value()).isEqualTo(202);
		assertThat(response.getBody()).isEqualTo("queued");
		assertThat(this.server.received()).hasSize(1);
	}

	private static final String STATUS_PATH = "/idempotency/operations/cGF5bWVudHMKaw";

	private static Reply accepted(int status, String state) {
		return new Reply(status, Map.of("Content-Type", "application/json", "Retry-After", "2"),
				"{\"status\":\"" + state + "\",\"operation\":\"payments\",\"href\":\"" + STATUS_PATH + "\"}");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("conflictsThatWillNotChange")
	void a409OtherThanInProgressIsReturnedAfterExactlyOneAttemptWithItsBody(String name, String contentType,
			String body) throws IOException {
		this.server = TestServer.start((request, server) -> new Reply(409, Map.of("Content-Type", contentType), body));
		RestClient client = client(options().build());

		ResponseEntity<String> response = postPayment(client);

		assertThat(response.getStatusCode().value()).isEqualTo(409);
		assertThat(response.getBody()).isEqualTo(body);
		assertThat(this.server.received()).hasSize(1);
		assertThat(this.sleeper.delays()).isEmpty();
		assertThat(this.attempts).singleElement().satisfies((attempt) -> assertThat(attempt.willRetry()).isFalse());
	}

	static Stream<Arguments> conflictsThatWillNotChange() {
		String longDetail = "x".repeat(20_000);
		return Stream.of(
				Arguments.of("stale sequence", "application/problem+json",
						"{\"type\":\"urn:problem-type:idempotency:stale-sequence\",\"status\":409,"
								+ "\"sequence\":2,\"highestSequence\":3}"),
				Arguments.of("lease lost", "application/problem+json",
						"{\"type\":\"urn:problem-type:idempotency:lease-lost\",\"status\":409}"),
				Arguments.of("the application's own problem", "application/problem+json",
						"{\"type\":\"https://payments.example/problems/already-refunded\",\"status\":409,"
								+ "\"detail\":\"" + longDetail + "\"}"),
				Arguments.of("the application's own JSON", "application/json", "{\"error\":\"order closed\"}"),
				Arguments.of("no problem at all", "text/plain", "in-progress"));
	}

	@Test
	void aLong409ThatIsNotRetriedReadsWholeThroughTheJdkClient() throws IOException {
		String body = "{\"type\":\"https://payments.example/problems/already-refunded\",\"detail\":\""
				+ "y".repeat(100_000) + "\"}";
		this.server = TestServer.start((request, server) -> new Reply(409,
				Map.of("Content-Type", "application/problem+json"), body));
		RestClient client = client(new JdkClientHttpRequestFactory(), options().build());

		ResponseEntity<String> response = postPayment(client);

		assertThat(response.getBody()).isEqualTo(body);
		assertThat(this.server.received()).hasSize(1);
	}

	@Test
	void aStored409ReplayedIsNotRetriedEvenIfItsTypeLooksInProgress() throws IOException {
		String body = "{\"type\":\"https://orders.example/in-progress\",\"status\":409}";
		this.server = TestServer.start((request, server) -> new Reply(409,
				Map.of("Content-Type", "application/problem+json", "Idempotent-Replayed", "true"), body));
		RestClient client = client(options().build());

		ResponseEntity<String> response = postPayment(client);

		assertThat(response.getStatusCode().value()).isEqualTo(409);
		assertThat(response.getBody()).isEqualTo(body);
		assertThat(this.server.received()).hasSize(1);
	}

	@Test
	void a409InProgressOfTheStartersOwnTypeIsRetried() throws IOException {
		this.server = TestServer.start((request, server) -> (request.number() < 3)
				? new Reply(409, Map.of("Content-Type", "application/problem+json"),
						"{\"type\":\"urn:problem-type:idempotency:in-progress\",\"title\":\"Request with this "
								+ "idempotency key in progress\",\"status\":409}")
				: Reply.of(201, "payment pay_4"));
		RestClient client = client(options().build());

		ResponseEntity<String> response = postPayment(client);

		assertThat(response.getStatusCode().value()).isEqualTo(201);
		assertThat(this.server.received()).hasSize(3);
	}

	@Test
	void aRetryAfterGivenAsAnHttpDateIsHonouredAgainstTheInjectedClock() throws IOException {
		Instant now = Instant.parse("2026-03-01T10:15:30Z");
		String inThreeSeconds = DateTimeFormatter.RFC_1123_DATE_TIME.format(now.plusSeconds(3).atZone(ZoneOffset.UTC));
		this.server = TestServer.start((request, server) -> (request.number() == 1)
				? Reply.of(429, "slow down").withHeader("Retry-After", inThreeSeconds) : Reply.of(200, "ok"));
		RestClient client = client(options().clock(new MutableClock(now)).build());

		ResponseEntity<String> response = postPayment(client);

		assertThat(response.getStatusCode().value()).isEqualTo(200);
		assertThat(this.sleeper.delays()).containsExactly(Duration.ofSeconds(3));
	}

	@Test
	void aRetryAfterLongerThanTheMaxDelayIsCappedAtTheMaxDelay() throws IOException {
		this.server = TestServer.start((request, server) -> (request.number() == 1)
				? Reply.of(503, "maintenance").withHeader("Retry-After", "3600") : Reply.of(200, "ok"));
		RestClient client = client(options().maxDelay(Duration.ofSeconds(2)).build());

		ResponseEntity<String> response = postPayment(client);

		assertThat(response.getStatusCode().value()).isEqualTo(200);
		assertThat(this.sleeper.delays()).containsExactly(Duration.ofSeconds(2));
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(ints = { 400, 401, 403, 404, 422 })
	void aFinal4xxIsReturnedAfterExactlyOneAttempt(int status) throws IOException {
		this.server = TestServer.start((request, server) -> Reply.of(status, "final"));
		RestClient client = client(options().build());

		ResponseEntity<String> response = postPayment(client);

		assertThat(response.getStatusCode().value()).isEqualTo(status);
		assertThat(this.server.received()).hasSize(1);
		assertThat(this.server.keysSeen().get(0)).isNotNull();
		assertThat(this.sleeper.delays()).isEmpty();
		assertThat(this.attempts).singleElement().satisfies((attempt) -> assertThat(attempt.willRetry()).isFalse());
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(ints = { 200, 201, 204, 302 })
	void a2xxOr3xxIsReturnedAfterExactlyOneAttempt(int status) throws IOException {
		this.server = TestServer.start((request, server) -> (status == 302)
				? new Reply(302, Map.of("Location", "/elsewhere"), "") : Reply.of(status, ""));
		SimpleClientHttpRequestFactory requestFactory = new SimpleClientHttpRequestFactory();
		RestClient client = client(requestFactory, options().build());

		ResponseEntity<String> response = postPayment(client);

		assertThat(response.getStatusCode().value()).isEqualTo(status);
		assertThat(this.server.received()).hasSize(1);
		assertThat(this.sleeper.delays()).isEmpty();
	}

	@Test
	void aServerThatAlwaysAnswers503GetsExactlyMaxAttemptsRequestsAndTheLastResponseIsReturned() throws IOException {
		this.server = TestServer.start(
				(request, server) -> Reply.of(503, "attempt " + request.number()).withHeader("X-Attempt",
						String.valueOf(request.number())));
		RestClient client = client(options().maxAttempts(4).build());

		ResponseEntity<String> response = postPayment(client);

		assertThat(response.getStatusCode().value()).isEqualTo(503);
		assertThat(response.getBody()).isEqualTo("attempt 4");
		assertThat(this.server.received()).hasSize(4);
		assertThat(this.server.keysSeen()).containsOnly(this.server.keysSeen().get(0));
		assertThat(this.sleeper.delays()).hasSize(3);
		assertThat(this.attempts).extracting(RetryAttempt::attempt).containsExactly(1, 2, 3, 4);
		assertThat(this.attempts).extracting(RetryAttempt::willRetry).containsExactly(true, true, true, false);
	}

	@Test
	void theBackoffGrowsExponentiallyUpToTheMaxDelay() throws IOException {
		this.server = TestServer.start((request, server) -> Reply.of(500, "boom"));
		RestClient client = client(options().jitter(Jitter.NONE)
			.initialDelay(Duration.ofMillis(100))
			.multiplier(2)
			.maxDelay(Duration.ofMillis(500))
			.maxAttempts(6)
			.build());

		postPayment(client);

		assertThat(this.sleeper.delays()).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200),
				Duration.ofMillis(400), Duration.ofMillis(500), Duration.ofMillis(500));
	}

	@Test
	void noRetryIsStartedThatWouldEndAfterTheDeadline() throws IOException {
		MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:15:30Z"));
		this.server = TestServer.start((request, server) -> Reply.of(503, "busy"));
		RestClient client = client(options().clock(clock)
			.sleeper(clock::advance)
			.jitter(Jitter.NONE)
			.initialDelay(Duration.ofMillis(400))
			.multiplier(1)
			.maxAttempts(10)
			.deadline(Duration.ofSeconds(1))
			.build());

		ResponseEntity<String> response = postPayment(client);

		// attempts at 0 ms, 400 ms and 800 ms; the next would start at 1200 ms
		assertThat(response.getStatusCode().value()).isEqualTo(503);
		assertThat(this.server.received()).hasSize(3);
	}

	@Test
	void aGetHasNoKeyByDefaultAndIsNotRetriedOn503() throws IOException {
		this.server = TestServer.start((request, server) -> Reply.of(503, "unavailable"));
		RestClient client = client(options().build());

		ResponseEntity<String> response = client.get()
			.uri("/payments/pay_1")
			.retrieve()
			.onStatus((status) -> true, (request, res) -> {
			})
			.toEntity(String.class);

		assertThat(response.getStatusCode().value()).isEqualTo(503);
		assertThat(this.server.received()).hasSize(1);
		assertThat(this.server.keysSeen()).containsOnlyNulls();
		assertThat(this.sleeper.delays()).isEmpty();
		assertThat(this.attempts).isEmpty();
	}

	@Test
	void aKeyTheCallerSetIsReusedOnEveryAttemptAndNotReplaced() throws IOException {
		this.server = TestServer.start(
				(request, server) -> (request.number() == 1) ? Reply.of(502, "bad gateway") : Reply.of(201, "created"));
		RestClient client = client(options().build());

		ResponseEntity<String> response = client.post()
			.uri("/payments")
			.header("Idempotency-Key", "order-42-payment")
			.body(PAYMENT)
			.retrieve()
			.toEntity(String.class);

		assertThat(response.getStatusCode().value()).isEqualTo(201);
		assertThat(this.server.keysSeen()).containsExactly("order-42-payment", "order-42-payment");
	}

	@Test
	void aGetWithAKeyTheCallerSetIsRetried() throws IOException {
		this.server = TestServer.start(
				(request, server) -> (request.number() == 1) ? Reply.of(503, "unavailable") : Reply.of(200, "ok"));
		RestClient client = client(options().build());

		ResponseEntity<String> response = client.get()
			.uri("/reports/daily")
			.header("Idempotency-Key", "report-2026-03-01")
			.retrieve()
			.toEntity(String.class);

		assertThat(response.getStatusCode().value()).isEqualTo(200);
		assertThat(this.server.keysSeen()).containsExactly("report-2026-03-01", "report-2026-03-01");
	}

	@Test
	void eachLogicalCallGetsItsOwnKey() throws IOException {
		this.server = TestServer.start((request, server) -> Reply.of(201, "created"));
		// HttpURLConnection cannot send PATCH
		RestClient client = client(new JdkClientHttpRequestFactory(), options().build());

		postPayment(client);
		postPayment(client);
		client.patch().uri("/payments/pay_1").body("{\"note\":\"x\"}").retrieve().toBodilessEntity();

		List<String> keys = this.server.keysSeen();
		assertThat(keys).hasSize(3).doesNotHaveDuplicates().doesNotContainNull();
		assertThat(keys.get(0)).isLessThan(keys.get(1));
	}

	@Test
	void onlyTheConfiguredMethodsGetAKey() throws IOException {
		this.server = TestServer.start((request, server) -> Reply.of(503, "unavailable"));
		RestClient client = client(options().methods(HttpMethod.PUT).maxAttempts(2).build());

		ResponseEntity<String> post = postPayment(client);
		ResponseEntity<String> put = client.put()
			.uri("/payments/pay_1")
			.body(PAYMENT)
			.retrieve()
			.onStatus((status) -> true, (request, res) -> {
			})
			.toEntity(String.class);

		assertThat(post.getStatusCode().value()).isEqualTo(503);
		assertThat(put.getStatusCode().value()).isEqualTo(503);
		assertThat(this.server.received()).extracting(TestServer.Received::method)
			.containsExactly("POST", "PUT", "PUT");
		assertThat(this.server.keysSeen().get(0)).isNull();
		assertThat(this.server.keysSeen().get(1)).isNotNull().isEqualTo(this.server.keysSeen().get(2));
	}

	@Test
	void aRefusedConnectionIsRetriedUpToMaxAttemptsAndTheLastErrorIsRethrown() throws IOException {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		RestClient client = RestClient.builder()
			.baseUrl("http://127.0.0.1:" + closedPort)
			.requestFactory(new SimpleClientHttpRequestFactory())
			.requestInterceptor(new IdempotencyKeyRetryInterceptor(options().maxAttempts(3).build()))
			.build();

		assertThatExceptionOfType(ResourceAccessException.class).isThrownBy(() -> postPayment(client))
			.withCauseInstanceOf(ConnectException.class);
		assertThat(this.attempts).hasSize(3);
		assertThat(this.attempts).extracting(RetryAttempt::exception).allMatch(ConnectException.class::isInstance);
		assertThat(this.attempts).extracting(RetryAttempt::keyHash).containsOnly(this.attempts.get(0).keyHash());
		assertThat(this.sleeper.delays()).hasSize(2);
	}

	@Test
	void anIoErrorTheOptionsDoNotRetryIsRethrownAtOnce() throws IOException {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		RestClient client = RestClient.builder()
			.baseUrl("http://127.0.0.1:" + closedPort)
			.requestFactory(new SimpleClientHttpRequestFactory())
			.requestInterceptor(new IdempotencyKeyRetryInterceptor(
					options().retryableException((ex) -> ex instanceof SocketTimeoutException).build()))
			.build();

		assertThatExceptionOfType(ResourceAccessException.class).isThrownBy(() -> postPayment(client));
		assertThat(this.attempts).hasSize(1);
		assertThat(this.sleeper.delays()).isEmpty();
	}

	@Test
	void anInterruptWhileWaitingToRetryStopsTheCallAndKeepsTheInterruptFlag() throws IOException {
		this.server = TestServer.start((request, server) -> Reply.of(503, "busy"));
		RestClient client = client(options().sleeper((delay) -> {
			throw new InterruptedException("shutting down");
		}).build());

		try {
			assertThatExceptionOfType(ResourceAccessException.class).isThrownBy(() -> postPayment(client))
				.withCauseInstanceOf(InterruptedIOException.class);
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
		}
		finally {
			Thread.interrupted();
		}
		assertThat(this.server.received()).hasSize(1);
	}

	@Test
	void responsesThatAreRetriedAreDrainedAndClosedBeforeTheNextAttempt() throws IOException {
		this.server = TestServer.start((request, server) -> (request.number() <= 2)
				? Reply.of(503, "x".repeat(10_000)) : Reply.of(201, "created"));
		List<TrackedResponse> responses = new CopyOnWriteArrayList<>();
		List<Boolean> previousClosedAtNextAttempt = new CopyOnWriteArrayList<>();
		ClientHttpRequestInterceptor tracking = (request, body, execution) -> {
			if (!responses.isEmpty()) {
				previousClosedAtNextAttempt.add(responses.get(responses.size() - 1).closed);
			}
			TrackedResponse response = new TrackedResponse(execution.execute(request, body));
			responses.add(response);
			return response;
		};
		RestClient client = RestClient.builder()
			.baseUrl(this.server.uri("").toString())
			.requestFactory(new SimpleClientHttpRequestFactory())
			.requestInterceptor(new IdempotencyKeyRetryInterceptor(options().build()))
			.requestInterceptor(tracking)
			.build();

		ResponseEntity<String> response = postPayment(client);

		assertThat(response.getBody()).isEqualTo("created");
		assertThat(previousClosedAtNextAttempt).containsExactly(true, true);
		assertThat(responses).hasSize(3);
		assertThat(responses.subList(0, 2)).allSatisfy((discarded) -> assertThat(discarded.drained).isTrue());
	}

	@Test
	void theListenerHearsEveryAttemptWithTheKeyHashButNotTheKey() throws IOException {
		this.server = TestServer.start(
				(request, server) -> (request.number() <= 2) ? Reply.of(503, "busy") : Reply.of(201, "created"));
		RestClient client = client(options().build());

		postPayment(client);

		String key = this.server.keysSeen().get(0);
		assertThat(this.attempts).extracting(RetryAttempt::attempt).containsExactly(1, 2, 3);
		assertThat(this.attempts).extracting((attempt) -> attempt.status().value()).containsExactly(503, 503, 201);
		assertThat(this.attempts).extracting(RetryAttempt::willRetry).containsExactly(true, true, false);
		assertThat(this.attempts).extracting(RetryAttempt::keyHash).containsOnly(IdempotencyKeys.hash(key));
		assertThat(this.attempts).extracting(RetryAttempt::toString).noneMatch((text) -> text.contains(key));
		assertThat(this.attempts).extracting(RetryAttempt::method).containsOnly(HttpMethod.POST);
		assertThat(this.attempts).extracting(RetryAttempt::maxAttempts).containsOnly(5);
	}

	@Test
	void theDefaultListenerLogsEachAttemptAtDebugWithTheKeyHashAndNeverTheKey() throws IOException {
		this.server = TestServer.start(
				(request, server) -> (request.number() == 1) ? Reply.of(503, "busy") : Reply.of(201, "created"));
		Logger logger = Logger.getLogger(IdempotencyKeyRetryInterceptor.class.getName());
		List<LogRecord> records = new CopyOnWriteArrayList<>();
		Handler handler = new Handler() {

			@Override
			public void publish(LogRecord record) {
				records.add(record);
			}

			@Override
			public void flush() {
			}

			@Override
			public void close() {
			}

		};
		Level previousLevel = logger.getLevel();
		logger.setLevel(Level.FINE);
		logger.addHandler(handler);
		try {
			RestClient client = client(options().listener(new LoggingRetryListener()).build());
			postPayment(client);
		}
		finally {
			logger.removeHandler(handler);
			logger.setLevel(previousLevel);
		}

		String key = this.server.keysSeen().get(0);
		assertThat(records).hasSize(2);
		assertThat(records).allSatisfy((record) -> {
			assertThat(record.getLevel()).isEqualTo(Level.FINE);
			assertThat(record.getMessage()).contains(IdempotencyKeys.hash(key)).doesNotContain(key);
		});
		assertThat(records.get(0).getMessage()).contains("attempt 1/5").contains("503").contains("retrying in");
		assertThat(records.get(1).getMessage()).contains("attempt 2/5").contains("201").doesNotContain("retrying");
	}

	@Test
	void theCallersRequestHeadersAreNotModified() throws IOException {
		this.server = TestServer.start((request, server) -> Reply.of(201, "created"));
		HttpHeaders seenByOuterInterceptor = new HttpHeaders();
		ClientHttpRequestInterceptor outer = (request, body, execution) -> {
			ClientHttpResponse response = execution.execute(request, body);
			seenByOuterInterceptor.addAll(request.getHeaders());
			return response;
		};
		RestClient client = RestClient.builder()
			.baseUrl(this.server.uri("").toString())
			.requestFactory(new SimpleClientHttpRequestFactory())
			.requestInterceptor(outer)
			.requestInterceptor(new IdempotencyKeyRetryInterceptor(options().build()))
			.build();

		postPayment(client);

		assertThat(this.server.keysSeen().get(0)).isNotNull();
		assertThat(seenByOuterInterceptor.containsHeader("Idempotency-Key")).isFalse();
	}

	@Test
	void theInterceptorWithDefaultsAddsAUuidV7KeyToAPost() throws IOException {
		this.server = TestServer.start((request, server) -> Reply.of(201, "created"));
		RestClient client = RestClient.builder()
			.baseUrl(this.server.uri("").toString())
			.requestInterceptor(IdempotencyKeyRetryInterceptor.withDefaults())
			.build();

		ResponseEntity<String> response = postPayment(client);

		assertThat(response.getStatusCode().value()).isEqualTo(201);
		UUID key = UUID.fromString(this.server.keysSeen().get(0));
		assertThat(key.version()).isEqualTo(7);
		assertThat(UuidV7.timestampMillis(key)).isCloseTo(System.currentTimeMillis(), within(60_000L));
	}

	private IdempotencyRetryOptions.Builder options() {
		return IdempotencyRetryOptions.builder().sleeper(this.sleeper).listener(this.attempts::add);
	}

	private RestClient client(IdempotencyRetryOptions options) {
		return client(new SimpleClientHttpRequestFactory(), options);
	}

	private RestClient client(ClientHttpRequestFactory requestFactory, IdempotencyRetryOptions options) {
		return RestClient.builder()
			.baseUrl(this.server.uri("").toString())
			.requestFactory(requestFactory)
			.requestInterceptor(new IdempotencyKeyRetryInterceptor(options))
			.build();
	}

	private static ResponseEntity<String> postPayment(RestClient client) {
		return client.post()
			.uri("/payments")
			.header(HttpHeaders.CONTENT_TYPE, "application/json")
			.body(PAYMENT)
			.retrieve()
			.onStatus((HttpStatusCode status) -> true, (request, response) -> {
			})
			.toEntity(String.class);
	}

	/**
	 * A real response that records whether it was closed and read to the end.
	 */
	private static final class TrackedResponse implements ClientHttpResponse {

		private final ClientHttpResponse delegate;

		private volatile boolean closed;

		private volatile boolean drained;

		private InputStream body;

		TrackedResponse(ClientHttpResponse delegate) {
			this.delegate = delegate;
		}

		@Override
		public HttpStatusCode getStatusCode() throws IOException {
			return this.delegate.getStatusCode();
		}

		@Override
		public String getStatusText() throws IOException {
			return this.delegate.getStatusText();
		}

		@Override
		public HttpHeaders getHeaders() {
			return this.delegate.getHeaders();
		}

		@Override
		public InputStream getBody() throws IOException {
			if (this.body == null) {
				this.body = new FilterInputStream(this.delegate.getBody()) {

					@Override
					public int read() throws IOException {
						return track(super.read());
					}

					@Override
					public int read(byte[] b, int off, int len) throws IOException {
						return track(super.read(b, off, len));
					}

				};
			}
			return this.body;
		}

		private int track(int result) {
			if (result == -1) {
				this.drained = true;
			}
			return result;
		}

		@Override
		public void close() {
			this.closed = true;
			this.delegate.close();
		}

	}

}
