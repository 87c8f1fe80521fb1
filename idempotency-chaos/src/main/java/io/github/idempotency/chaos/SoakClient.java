package io.github.idempotency.chaos;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpRequest;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.support.HttpRequestWrapper;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

import io.github.idempotency.client.IdempotencyKeyRetryInterceptor;
import io.github.idempotency.client.IdempotencyRetryOptions;
import io.github.idempotency.client.RetryListener;

/**
 * The soak's HTTP client: the project's {@link IdempotencyKeyRetryInterceptor} retries each call
 * with its key, and under it every attempt goes to a randomly chosen instance and is recorded in
 * the history with its answer.
 */
final class SoakClient {

	/**
	 * The statuses after which a client retries with the same key: the interceptor's defaults.
	 */
	static final IntPredicate RETRYABLE = (status) -> IdempotencyRetryOptions.DEFAULT_RETRYABLE_STATUS
		.test(HttpStatusCode.valueOf(status));

	private static final ThreadLocal<Call> CURRENT = new ThreadLocal<>();

	private final RestClient rest;

	private final List<URI> instances;

	private final History.Writer history;

	SoakClient(List<URI> instances, Duration readTimeout, History.Writer history) {
		this.instances = List.copyOf(instances);
		this.history = history;
		HttpClient http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(1))
			.build();
		JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(http);
		factory.setReadTimeout(readTimeout);
		IdempotencyRetryOptions options = IdempotencyRetryOptions.builder()
			.maxAttempts(8)
			.initialDelay(Duration.ofMillis(50))
			.maxDelay(Duration.ofSeconds(2))
			.deadline(Duration.ofSeconds(30))
			.listener(RetryListener.NONE)
			.build();
		this.rest = RestClient.builder()
			.baseUrl("http://instance")
			.requestFactory(factory)
			.requestInterceptor(new IdempotencyKeyRetryInterceptor(options))
			.requestInterceptor(this::routeAndRecord)
			.build();
	}

	/**
	 * Send one call, retried by the interceptor, for a logical payment.
	 * @param call the payment; its attempt counter goes on across calls
	 * @return the status of the answer the interceptor returned, or {@code null} if it gave up
	 * after a connection error
	 */
	@Nullable Integer send(Call call) {
		CURRENT.set(call);
		try {
			return this.rest.post()
				.uri(call.async ? "/payments/async" : call.accepted ? "/payments/accepted" : "/payments")
				.header(IdempotencyRetryOptions.IDEMPOTENCY_KEY_HEADER, call.key)
				.contentType(MediaType.APPLICATION_JSON)
				.body(call.body)
				.exchange((request, response) -> response.getStatusCode().value());
		}
		catch (RestClientException ex) {
			return null;
		}
		finally {
			CURRENT.remove();
		}
	}

	private ClientHttpResponse routeAndRecord(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
			throws IOException {
		Call call = CURRENT.get();
		int instance = 1 + ThreadLocalRandom.current().nextInt(this.instances.size());
		URI target = this.instances.get(instance - 1).resolve(request.getURI().getRawPath());
		HttpRequest routed = new HttpRequestWrapper(request) {

			@Override
			public URI getURI() {
				return target;
			}

		};
		int attempt = call.attempts.incrementAndGet();
		boolean poll = request.getMethod() == HttpMethod.GET;
		long start = System.currentTimeMillis();
		try (ClientHttpResponse response = execution.execute(routed, body)) {
			int status = response.getStatusCode().value();
			HttpHeaders headers = HttpHeaders.copyOf(response.getHeaders());
			byte[] answer = response.getBody().readAllBytes();
			String problemType = null;
			Long paymentId = null;
			String chargeId = null;
			MediaType contentType = headers.getContentType();
			if (contentType != null && answer.length > 0) {
				JsonNode json = parse(answer);
				if (json != null && MediaType.APPLICATION_PROBLEM_JSON.isCompatibleWith(contentType)) {
					problemType = text(json, "type");
				}
				else if (json != null && status >= 200 && status < 300) {
					paymentId = json.hasNonNull("id") ? json.get("id").asLong() : null;
					chargeId = text(json, "gatewayChargeId");
				}
			}
			this.history.attempt(new Attempt(call.worker, call.key, attempt, instance, call.phase, start,
					System.currentTimeMillis(), status, "true".equals(headers.getFirst("Idempotent-Replayed")),
					problemType, sha256(answer), null, call.requestHash, paymentId, chargeId, call.async, call.accepted,
					poll));
			return new BufferedResponse(response.getStatusCode(), response.getStatusText(), headers, answer);
		}
		catch (IOException ex) {
			this.history.attempt(new Attempt(call.worker, call.key, attempt, instance, call.phase, start,
					System.currentTimeMillis(), null, false, null, null, ex.getClass().getSimpleName() + ": "
							+ ex.getMessage(), call.requestHash, null, null, call.async, call.accepted, poll));
			throw ex;
		}
	}

	private static @Nullable JsonNode parse(byte[] json) {
		try {
			return History.JSON.readTree(json);
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	private static @Nullable String text(JsonNode json, String field) {
		return json.hasNonNull(field) ? json.get(field).asString() : null;
	}

	static String sha256(byte[] bytes) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * One logical payment: its key, body and endpoint never change, whatever the retries; a
	 * hedged one is sent by two threads at once.
	 */
	static final class Call {

		final int worker;

		final String key;

		final byte[] body;

		final String requestHash;

		final boolean async;

		final boolean accepted;

		volatile String phase;

		final AtomicInteger attempts = new AtomicInteger();

		Call(int worker, String key, String body, String phase) {
			this(worker, key, body, phase, false);
		}

		Call(int worker, String key, String body, String phase, boolean async) {
			this(worker, key, body, phase, async, false);
		}

		Call(int worker, String key, String body, String phase, boolean async, boolean accepted) {
			this.worker = worker;
			this.key = key;
			this.body = body.getBytes(StandardCharsets.UTF_8);
			this.requestHash = sha256(this.body);
			this.phase = phase;
			this.async = async;
			this.accepted = accepted;
		}

	}

	private static final class BufferedResponse implements ClientHttpResponse {

		private final HttpStatusCode status;

		private final String statusText;

		private final HttpHeaders headers;

		private final byte[] body;

		BufferedResponse(HttpStatusCode status, String statusText, HttpHeaders headers, byte[] body) {
			this.status = status;
			this.statusText = statusText;
			this.headers = headers;
			this.body = body;
		}

		@Override
		public HttpStatusCode getStatusCode() {
			return this.status;
		}

		@Override
		public String getStatusText() {
			return this.statusText;
		}

		@Override
		public HttpHeaders getHeaders() {
			return this.headers;
		}

		@Override
		public InputStream getBody() {
			return new ByteArrayInputStream(this.body);
		}

		@Override
		public void close() {
		}

	}

}
