package io.github.idempotency.web;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration properties of idempotent HTTP requests, on Spring MVC and Spring WebFlux alike: the
 * key header, the body limit, the stored headers and the documentation that problems link to.
 */
@ConfigurationProperties("idempotency")
public class IdempotencyWebProperties {

	public static final String DEFAULT_KEY_HEADER = "Idempotency-Key";

	public static final DataSize DEFAULT_MAX_BODY_SIZE = DataSize.ofMegabytes(1);

	/**
	 * Request header that carries the idempotency key.
	 */
	private String keyHeader = DEFAULT_KEY_HEADER;

	/**
	 * Largest request body an idempotent request may have; a larger one is refused with 413.
	 */
	private DataSize maxBodySize = DEFAULT_MAX_BODY_SIZE;

	/**
	 * Response headers stored and replayed in addition to Content-Type and Location. Cookies,
	 * credentials and hop-by-hop headers are refused.
	 */
	private List<String> storedHeaders = new ArrayList<>();

	/**
	 * Where clients read how to use idempotency keys. When set, every problem the starter answers
	 * links to it with a 'Link: <uri>; rel="describedby"' header, as the IETF draft recommends.
	 */
	private @Nullable URI documentationUri;

	private final Accepted accepted = new Accepted();

	public String getKeyHeader() {
		return this.keyHeader;
	}

	public void setKeyHeader(String keyHeader) {
		this.keyHeader = keyHeader;
	}

	public DataSize getMaxBodySize() {
		return this.maxBodySize;
	}

	public void setMaxBodySize(DataSize maxBodySize) {
		this.maxBodySize = maxBodySize;
	}

	public List<String> getStoredHeaders() {
		return this.storedHeaders;
	}

	public void setStoredHeaders(List<String> storedHeaders) {
		this.storedHeaders = storedHeaders;
	}

	public @Nullable URI getDocumentationUri() {
		return this.documentationUri;
	}

	public void setDocumentationUri(@Nullable URI documentationUri) {
		this.documentationUri = documentationUri;
	}

	public Accepted getAccepted() {
		return this.accepted;
	}

	/**
	 * Operations answered 202 Accepted while their work goes on (those with
	 * {@code idempotency.operations.<name>.accept-after}): the threads their work runs on and their status
	 * resource.
	 */
	public static class Accepted {

		/**
		 * Threads that run the work of accepted requests.
		 */
		private int threads = 8;

		/**
		 * Accepted requests whose work waits for a thread; beyond it a new request is refused with
		 * 503 and its key released.
		 */
		private int queueCapacity = 100;

		/**
		 * Path under which the status of an accepted request is served.
		 */
		private String statusPath = "/idempotency/operations";

		/**
		 * How long a client is asked to wait before it polls the status again (Retry-After).
		 */
		private Duration retryAfter = Duration.ofSeconds(2);

		public int getThreads() {
			return this.threads;
		}

		public void setThreads(int threads) {
			this.threads = threads;
		}

		public int getQueueCapacity() {
			return this.queueCapacity;
		}

		public void setQueueCapacity(int queueCapacity) {
			this.queueCapacity = queueCapacity;
		}

		public String getStatusPath() {
			return this.statusPath;
		}

		public void setStatusPath(String statusPath) {
			this.statusPath = statusPath;
		}

		public Duration getRetryAfter() {
			return this.retryAfter;
		}

		public void setRetryAfter(Duration retryAfter) {
			this.retryAfter = retryAfter;
		}

	}

}
