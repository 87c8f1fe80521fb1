package io.github.idempotency.web;

import java.net.URI;
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

}
