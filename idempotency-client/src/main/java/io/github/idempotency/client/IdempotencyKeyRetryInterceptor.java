package io.github.idempotency.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.support.HttpRequestWrapper;
import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * A {@link ClientHttpRequestInterceptor} that gives each call one {@code Idempotency-Key} (a
 * {@link UuidV7} unless the caller set one) and retries transient failures with that same key,
 * with exponential backoff, jitter and {@code Retry-After}.
 * <p>
 * Add it to a {@code RestClient.Builder} with {@code requestInterceptor(...)}. A request that
 * has no key (by default anything but POST and PATCH without a caller-set key) passes through
 * and is never retried. A keyed request is retried on I/O errors, 5xx, 408, 409, 425 and 429 up
 * to {@link IdempotencyRetryOptions#maxAttempts() maxAttempts}; any other status is returned
 * at once. A {@code 409} is retried only when it is the problem of a key in progress (a JSON
 * problem whose {@code type} ends in {@code in-progress}, not a replay): any other conflict, such
 * as a stale sequence or a conflict the server stored as the key's outcome, answers the same
 * however often it is retried, and is returned at once. A {@code 202 Accepted} that the starter
 * answered for a request whose work goes on is followed: its status link is polled, honouring
 * {@code Retry-After}, until the stored response is there, which is returned; when the work
 * stopped (an instance died, a transient failure) the request is sent again with its key, and
 * when {@link IdempotencyRetryOptions#acceptedWait() acceptedWait} runs out the last state is
 * returned. After the last attempt the last response is returned or the last I/O error is
 * rethrown. Responses that are retried are drained and closed.
 * <p>
 * Only failures before the response is handed back are retried: an error while the caller
 * reads the body of a 2xx response is the caller's to handle.
 */
public final class IdempotencyKeyRetryInterceptor implements ClientHttpRequestInterceptor {

	private static final Log logger = LogFactory.getLog(IdempotencyKeyRetryInterceptor.class);

	private static final int MAX_DRAIN_BYTES = 64 * 1024;

	private final IdempotencyRetryOptions options;

	/**
	 * Create an interceptor.
	 * @param options the settings
	 */
	public IdempotencyKeyRetryInterceptor(IdempotencyRetryOptions options) {
		Assert.notNull(options, "'options' must not be null");
		this.options = options;
	}

	/**
	 * Return an interceptor with {@link IdempotencyRetryOptions#defaults() the default settings}.
	 * @return the interceptor
	 */
	public static IdempotencyKeyRetryInterceptor withDefaults() {
		return new IdempotencyKeyRetryInterceptor(IdempotencyRetryOptions.defaults());
	}

	/**
	 * Return the settings of this interceptor.
	 * @return the settings
	 */
	public IdempotencyRetryOptions getOptions() {
		return this.options;
	}

	@Override
	public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
			throws IOException {
		String key = request.getHeaders().getFirst(this.options.headerName());
		HttpRequest keyed = request;
		if (key == null) {
			if (!this.options.methods().contains(request.getMethod())) {
				return execution.execute(request, body);
			}
			key = this.options.keyGenerator().get();
			Assert.state(StringUtils.hasText(key), "The key generator returned an empty key");
			keyed = new KeyedRequest(request, this.options.headerName(), key);
		}
		return executeWithRetries(keyed, body, execution, IdempotencyKeys.hash(key));
	}

	private ClientHttpResponse executeWithRetries(HttpRequest request, byte[] body, ClientHttpRequestExecution execution,
			String keyHash) throws IOException {
		Instant start = this.options.clock().instant();
		int maxAttempts = this.options.maxAttempts();
		for (int attempt = 1;; attempt++) {
			ClientHttpResponse response = null;
			IOException failure = null;
			HttpStatusCode status = null;
			try {
				response = execution.execute(request, body);
				status = response.getStatusCode();
				if (status.value() == HttpStatus.CONFLICT.value()) {
					response = ConflictResponse.of(response);
				}
			}
			catch (IOException ex) {
				if (response != null) {
					// some request factories only read the status line here, so a read timeout
					// surfaces now: the exchange failed like any other I/O error
					closeQuietly(response);
					response = null;
				}
				failure = ex;
			}
			Duration delay = null;
			if (attempt < maxAttempts && isRetryable(response, status, failure)) {
				delay = RetryDelays.next(this.options, attempt, (response != null) ? response.getHeaders() : null);
				if (pastDeadline(start, delay)) {
					delay = null;
				}
			}
			notify(request, attempt, keyHash, status, failure, delay);
			if (delay == null && response != null && status.value() == HttpStatus.ACCEPTED.value()) {
				response = follow(request, response, execution, keyHash);
				if (response == null) {
					// The accepted work stopped (its instance died, or it failed transiently):
					// send the request again, which takes it over or runs it again.
					if (attempt < maxAttempts) {
						continue;
					}
					throw new IOException("The accepted request's work stopped and no attempt is left to send it "
							+ "again");
				}
			}
			if (delay == null) {
				if (response != null) {
					return response;
				}
				throw failure;
			}
			if (response != null) {
				discard(response);
			}
			sleep(delay);
		}
	}

	/**
	 * Follow the status link of a {@code 202 Accepted} that the starter answered for a request
	 * whose work goes on, until the work is done or {@link IdempotencyRetryOptions#acceptedWait()}
	 * runs out.
	 * @return the stored response once done, the last state when the wait ran out, the response
	 * itself if it is no accepted request's, or {@code null} to send the request again
	 */
	private @Nullable ClientHttpResponse follow(HttpRequest request, ClientHttpResponse response,
			ClientHttpRequestExecution execution, String keyHash) throws IOException {
		Duration wait = this.options.acceptedWait();
		if (wait.isZero()) {
			return response;
		}
		AcceptedStatus state = AcceptedStatus.of(response, request.getURI());
		if (state == null || !state.isState()) {
			return (state != null) ? state : response;
		}
		Instant until = this.options.clock().instant().plus(wait);
		URI link = state.link();
		ClientHttpResponse last = state;
		int failedPolls = 0;
		while (true) {
			if (last instanceof AcceptedStatus current && !current.isRunning()) {
				discard(last);
				return null;
			}
			Duration delay = (last != null) ? RetryDelays.next(this.options, 1, last.getHeaders())
					: RetryDelays.backoff(this.options, failedPolls);
			if (this.options.clock().instant().plus(delay).isAfter(until)) {
				if (last != null) {
					return last;
				}
				throw new IOException("The status of an accepted request could not be read before the wait ran out");
			}
			if (last != null) {
				discard(last);
			}
			sleep(delay);
			logger.debug("Polling the status of the accepted request of key #" + keyHash);
			ClientHttpResponse polled;
			try {
				polled = execution.execute(new StatusRequest(request, link), new byte[0]);
			}
			catch (IOException ex) {
				failedPolls++;
				last = null;
				continue;
			}
			int code = polled.getStatusCode().value();
			if (code == HttpStatus.NOT_FOUND.value()) {
				discard(polled);
				return null;
			}
			if (this.options.retryableStatus().test(polled.getStatusCode())) {
				discard(polled);
				failedPolls++;
				last = null;
				continue;
			}
			AcceptedStatus polledState = AcceptedStatus.of(polled, link);
			if (polledState == null || !polledState.isState()) {
				return (polledState != null) ? polledState : polled;
			}
			last = polledState;
		}
	}

	private boolean isRetryable(@Nullable ClientHttpResponse response, @Nullable HttpStatusCode status,
			@Nullable IOException failure) {
		if (Thread.currentThread().isInterrupted()) {
			return false;
		}
		if (status != null) {
			boolean willChange = !(response instanceof ConflictResponse conflict) || conflict.isInProgress();
			return willChange && this.options.retryableStatus().test(status);
		}
		return failure != null && this.options.retryableException().test(failure);
	}

	private boolean pastDeadline(Instant start, Duration delay) {
		Duration deadline = this.options.deadline();
		if (deadline == null) {
			return false;
		}
		Duration elapsed = Duration.between(start, this.options.clock().instant());
		return elapsed.plus(delay).compareTo(deadline) > 0;
	}

	private void notify(HttpRequest request, int attempt, String keyHash, @Nullable HttpStatusCode status,
			@Nullable IOException failure, @Nullable Duration delay) {
		RetryAttempt event = new RetryAttempt(request.getMethod(), request.getURI(), attempt,
				this.options.maxAttempts(), keyHash, status, failure, delay);
		try {
			this.options.listener().onAttempt(event);
		}
		catch (RuntimeException ex) {
			logger.debug("Retry listener failed", ex);
		}
	}

	private void sleep(Duration delay) throws InterruptedIOException {
		try {
			this.options.sleeper().sleep(delay);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			InterruptedIOException interrupted = new InterruptedIOException("Interrupted while waiting to retry");
			interrupted.initCause(ex);
			throw interrupted;
		}
	}

	private static void discard(ClientHttpResponse response) {
		try (response) {
			InputStream in = response.getBody();
			byte[] buffer = new byte[4096];
			int total = 0;
			int read;
			while (total < MAX_DRAIN_BYTES && (read = in.read(buffer)) != -1) {
				total += read;
			}
		}
		catch (IOException | RuntimeException ex) {
			logger.trace("Could not drain a discarded response", ex);
		}
	}

	private static void closeQuietly(ClientHttpResponse response) {
		try {
			response.close();
		}
		catch (RuntimeException ex) {
			logger.trace("Could not close a failed response", ex);
		}
	}

	/**
	 * A {@code GET} of an accepted request's status link, with the caller's headers (credentials,
	 * tenant) but no body.
	 */
	private static final class StatusRequest extends HttpRequestWrapper {

		private final URI uri;

		private final HttpHeaders headers;

		StatusRequest(HttpRequest request, URI uri) {
			super(request);
			this.uri = uri;
			this.headers = HttpHeaders.copyOf(request.getHeaders());
			this.headers.remove(HttpHeaders.CONTENT_TYPE);
			this.headers.remove(HttpHeaders.CONTENT_LENGTH);
		}

		@Override
		public HttpMethod getMethod() {
			return HttpMethod.GET;
		}

		@Override
		public URI getURI() {
			return this.uri;
		}

		@Override
		public HttpHeaders getHeaders() {
			return this.headers;
		}

	}

	/**
	 * The caller's request with the key header added, leaving the original untouched.
	 */
	private static final class KeyedRequest extends HttpRequestWrapper {

		private final HttpHeaders headers;

		KeyedRequest(HttpRequest request, String headerName, String key) {
			super(request);
			this.headers = HttpHeaders.copyOf(request.getHeaders());
			this.headers.set(headerName, key);
		}

		@Override
		public HttpHeaders getHeaders() {
			return this.headers;
		}

	}

}
