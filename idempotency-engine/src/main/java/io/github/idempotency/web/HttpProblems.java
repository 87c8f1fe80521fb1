package io.github.idempotency.web;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

import io.github.idempotency.IdempotencyException;
import io.github.idempotency.IdempotencyProblemCustomizer;
import io.github.idempotency.fingerprint.CanonicalJson;
import io.github.idempotency.store.StoredResponse;

/**
 * The one place the starter's refusals become RFC 9457 problems: status and headers of the
 * refusal, the documentation {@code Link}, the application's {@link IdempotencyProblemCustomizer}s.
 */
public final class HttpProblems {

	/**
	 * Media type of every problem the starter writes.
	 */
	public static final String PROBLEM_JSON = "application/problem+json";

	/**
	 * What a caller that reused a key is told.
	 */
	public static final String MISMATCH_DETAIL = "This idempotency key was already used for a different request; use a "
			+ "new key for a new request.";

	private final @Nullable String describedBy;

	private final List<IdempotencyProblemCustomizer> customizers;

	/**
	 * Create the problem writer.
	 * @param describedBy the {@code Link} header that points clients to documentation, or
	 * {@code null}
	 * @param customizers the application's customizers, in order
	 */
	public HttpProblems(@Nullable String describedBy, List<IdempotencyProblemCustomizer> customizers) {
		this.describedBy = describedBy;
		this.customizers = List.copyOf(customizers);
	}

	/**
	 * Create the problem writer of the application's web properties.
	 * @param properties the properties
	 * @param customizers the application's customizers, in order
	 * @return the problem writer
	 */
	public static HttpProblems of(IdempotencyWebProperties properties, List<IdempotencyProblemCustomizer> customizers) {
		URI documentation = properties.getDocumentationUri();
		return new HttpProblems((documentation != null) ? "<" + documentation + ">; rel=\"describedby\"" : null,
				customizers);
	}

	/**
	 * Return what a caller without a key is told.
	 * @param keyHeader the key header
	 * @param derived whether the operation derives its key from the request instead
	 * @return the detail of the problem
	 */
	public static String missingKeyDetail(String keyHeader, boolean derived) {
		return derived ? "This operation derives its idempotency key from the request, and this request yields none."
				: "This operation requires an " + keyHeader + " header.";
	}

	/**
	 * Return the problem a refusal stands for, customized.
	 * @param ex the refusal
	 * @param instance the request path, or {@code null}
	 * @return a new problem
	 */
	public ProblemDetail problem(IdempotencyException ex, @Nullable String instance) {
		ProblemDetail original = ex.getBody();
		ProblemDetail problem = ProblemDetail.forStatus(original.getStatus());
		problem.setType(original.getType());
		problem.setTitle(original.getTitle());
		problem.setDetail(original.getDetail());
		if (original.getProperties() != null) {
			original.getProperties().forEach(problem::setProperty);
		}
		if (instance != null) {
			try {
				problem.setInstance(URI.create(instance));
			}
			catch (IllegalArgumentException invalid) {
				// A request path that is no URI reference: the problem goes without one.
			}
		}
		for (IdempotencyProblemCustomizer customizer : this.customizers) {
			customizer.customize(problem, ex);
		}
		problem.setType(original.getType());
		problem.setStatus(original.getStatus());
		return problem;
	}

	/**
	 * Return the headers of a refusal's answer: its own (such as {@code Retry-After}) and the
	 * documentation {@code Link}.
	 * @param ex the refusal
	 * @return the headers, without {@code Content-Type}
	 */
	public HttpHeaders headers(IdempotencyException ex) {
		HttpHeaders headers = new HttpHeaders();
		headers.putAll(ex.getHeaders());
		if (this.describedBy != null) {
			headers.add(HttpHeaders.LINK, this.describedBy);
		}
		return headers;
	}

	/**
	 * Return the whole answer to a refusal.
	 * @param ex the refusal
	 * @param path the request path
	 * @return status, headers and problem body
	 */
	public StoredResponse response(IdempotencyException ex, @Nullable String path) {
		Map<String, List<String>> headers = new LinkedHashMap<>(headers(ex).asMultiValueMap());
		headers.put(HttpHeaders.CONTENT_TYPE, List.of(PROBLEM_JSON));
		return new StoredResponse(ex.getStatusCode().value(), headers, json(problem(ex, path)));
	}

	/**
	 * Return a problem body for a status that a handler answered without a body of its own.
	 * @param status the status
	 * @param instance the request path
	 * @return the body
	 */
	public static byte[] statusProblem(int status, String instance) {
		HttpStatus resolved = HttpStatus.resolve(status);
		ProblemDetail problem = ProblemDetail.forStatus(status);
		problem.setTitle((resolved != null) ? resolved.getReasonPhrase() : "Error");
		try {
			problem.setInstance(URI.create(instance));
		}
		catch (IllegalArgumentException invalid) {
			// A request path that is no URI reference: the problem goes without one.
		}
		return json(problem);
	}

	/**
	 * Return a problem as JSON, its members in the order RFC 9457 lists them.
	 * @param problem the problem
	 * @return the JSON body
	 */
	public static byte[] json(ProblemDetail problem) {
		StringBuilder json = new StringBuilder(256);
		URI type = problem.getType();
		json.append("{\"type\":").append(CanonicalJson.quote((type != null) ? type.toString() : "about:blank"));
		if (problem.getTitle() != null) {
			json.append(",\"title\":").append(CanonicalJson.quote(problem.getTitle()));
		}
		json.append(",\"status\":").append(problem.getStatus());
		if (problem.getDetail() != null) {
			json.append(",\"detail\":").append(CanonicalJson.quote(problem.getDetail()));
		}
		if (problem.getInstance() != null) {
			json.append(",\"instance\":").append(CanonicalJson.quote(problem.getInstance().toString()));
		}
		Map<String, @Nullable Object> properties = problem.getProperties();
		if (properties != null) {
			properties.forEach((name, value) -> {
				json.append(',').append(CanonicalJson.quote(name)).append(':');
				value(value, json);
			});
		}
		return json.append('}').toString().getBytes(StandardCharsets.UTF_8);
	}

	private static void value(@Nullable Object value, StringBuilder json) {
		if (value == null) {
			json.append("null");
		}
		else if (value instanceof Boolean || value instanceof Integer || value instanceof Long
				|| value instanceof Short || value instanceof java.math.BigInteger
				|| value instanceof java.math.BigDecimal) {
			json.append(value);
		}
		else if (value instanceof Number number && Double.isFinite(number.doubleValue())) {
			json.append(number);
		}
		else if (value instanceof Map<?, ?> map) {
			json.append('{');
			boolean first = true;
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				json.append(first ? "" : ",").append(CanonicalJson.quote(String.valueOf(entry.getKey()))).append(':');
				value(entry.getValue(), json);
				first = false;
			}
			json.append('}');
		}
		else if (value instanceof Collection<?> || value instanceof Object[]) {
			Collection<?> items = (value instanceof Collection<?> collection) ? collection
					: java.util.Arrays.asList((Object[]) value);
			json.append('[');
			boolean first = true;
			for (Object item : items) {
				json.append(first ? "" : ",");
				value(item, json);
				first = false;
			}
			json.append(']');
		}
		else {
			json.append(CanonicalJson.quote(value.toString()));
		}
	}

}
