package io.github.idempotency.web;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;

import io.github.idempotency.IdempotencyException;
import io.github.idempotency.engine.IdempotencyProperties;
import io.github.idempotency.fingerprint.CanonicalJson;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.store.StoredResponse;

/**
 * The answers of an accepted request and of its status resource, on either web stack:
 * {@code 202 Accepted} with the status link, the state while the work runs, and the stored
 * response once it is done.
 */
public final class OperationStatusResponses {

	/**
	 * The problem type of a status link that names no operation of the client's.
	 */
	public static final String NOT_FOUND_TYPE = IdempotencyException.TYPE_PREFIX + "operation-not-found";

	private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

	private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

	private static final char SEPARATOR = '\n';

	private final String statusPath;

	private final String retryAfter;

	/**
	 * Create the answers of the given settings.
	 * @param settings the settings of accepted requests
	 */
	public OperationStatusResponses(IdempotencyWebProperties.Accepted settings) {
		String path = settings.getStatusPath();
		this.statusPath = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
		this.retryAfter = String.valueOf(Math.max(1, settings.getRetryAfter().toSeconds()));
	}

	/**
	 * Return the path under which statuses are served.
	 * @return the path, without a trailing slash
	 */
	public String statusPath() {
		return this.statusPath;
	}

	/**
	 * Return the status link of an operation's key. It names the operation and the key, which the
	 * status resource looks up in the tenant of the client that asks: the link of another tenant's
	 * request names nothing for it.
	 * @param operation the operation
	 * @param key the key, as the client sent it
	 * @return the link's path
	 */
	public String link(String operation, String key) {
		String id = ENCODER.encodeToString((operation + SEPARATOR + key).getBytes(StandardCharsets.UTF_8));
		return this.statusPath + "/" + id;
	}

	/**
	 * Read the operation and key a status link's last segment names.
	 * @param id the last segment
	 * @return the operation and key, or {@code null} if the segment is no status link's
	 */
	public static @Nullable Target target(String id) {
		String decoded;
		try {
			decoded = new String(DECODER.decode(id), StandardCharsets.UTF_8);
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
		int separator = decoded.indexOf(SEPARATOR);
		if (separator <= 0 || separator == decoded.length() - 1) {
			return null;
		}
		return new Target(decoded.substring(0, separator), decoded.substring(separator + 1));
	}

	/**
	 * Return the answer to a request whose work goes on after it: {@code 202 Accepted} with the
	 * status link in {@code Location}.
	 * @param operation the operation
	 * @param key the key, as the client sent it
	 * @return the answer
	 */
	public StoredResponse accepted(String operation, String key) {
		String link = link(operation, key);
		Map<String, List<String>> headers = json();
		headers.put(HttpHeaders.LOCATION, List.of(link));
		headers.put(HttpHeaders.RETRY_AFTER, List.of(this.retryAfter));
		return new StoredResponse(202, headers, state("running", operation, link));
	}

	/**
	 * Return the status of a record: its state while its work runs, or its stored response.
	 * @param record the record
	 * @param now the current time
	 * @return the answer
	 */
	public StoredResponse status(IdempotencyRecord record, Instant now) {
		StoredResponse stored = record.response();
		if (record.status() == RecordStatus.COMPLETED && stored != null) {
			Map<String, List<String>> headers = new LinkedHashMap<>(stored.headers());
			headers.put(StoredHeaderPolicy.REPLAYED_HEADER, List.of("true"));
			return new StoredResponse(stored.status(), headers, stored.body());
		}
		String operation = record.key().operation();
		String link = link(operation, record.key().key());
		Map<String, List<String>> headers = json();
		if (record.status() == RecordStatus.RELEASED) {
			// The work failed transiently and gave its key up: a retry of the request runs it again.
			return new StoredResponse(200, headers, state("failed", operation, link));
		}
		boolean running = record.lockedUntil() == null || record.lockedUntil().isAfter(now);
		if (running) {
			headers.put(HttpHeaders.RETRY_AFTER, List.of(this.retryAfter));
		}
		// A lease run out: the work stopped (its instance went away); a retry of the request takes it over.
		return new StoredResponse(200, headers, state(running ? "running" : "interrupted", operation, link));
	}

	/**
	 * Return the answer to a status link that names no operation of the client's.
	 * @param path the requested path
	 * @return a {@code 404} problem
	 */
	public StoredResponse notFound(String path) {
		ProblemDetail problem = ProblemDetail.forStatus(404);
		problem.setType(URI.create(NOT_FOUND_TYPE));
		problem.setTitle("Operation not found");
		problem.setDetail("No request of yours is known by this link: it belongs to another tenant, its work failed "
				+ "and released its key, or its record expired. Send the original request again with its "
				+ "idempotency key.");
		try {
			problem.setInstance(URI.create(path));
		}
		catch (IllegalArgumentException invalid) {
			// A path that is no URI reference: the problem goes without one.
		}
		Map<String, List<String>> headers = new LinkedHashMap<>();
		headers.put(HttpHeaders.CONTENT_TYPE, List.of(HttpProblems.PROBLEM_JSON));
		return new StoredResponse(404, headers, HttpProblems.json(problem));
	}

	private static Map<String, List<String>> json() {
		Map<String, List<String>> headers = new LinkedHashMap<>();
		headers.put(HttpHeaders.CONTENT_TYPE, List.of(MediaType.APPLICATION_JSON_VALUE));
		return headers;
	}

	private static byte[] state(String state, String operation, String link) {
		return ("{\"status\":" + CanonicalJson.quote(state) + ",\"operation\":" + CanonicalJson.quote(operation)
				+ ",\"href\":" + CanonicalJson.quote(link) + "}")
			.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * What a status link names.
	 *
	 * @param operation the operation
	 * @param key the key, as the client sent it
	 */
	public record Target(String operation, String key) {
	}

	/**
	 * Matches when an operation sets {@code idempotency.operations.<name>.accept-after}: only then
	 * is the status resource of accepted requests served.
	 */
	public static final class OnAcceptedOperations extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			Map<String, IdempotencyProperties.Operation> operations = Binder.get(context.getEnvironment())
				.bind("idempotency.operations", Bindable.mapOf(String.class, IdempotencyProperties.Operation.class))
				.orElse(Map.of());
			return anyAccepts(operations) ? ConditionOutcome.match("an operation sets accept-after")
					: ConditionOutcome.noMatch("no operation sets accept-after");
		}

	}

	/**
	 * Return whether any operation sets {@code accept-after}.
	 * @param operations the operations' settings
	 * @return whether any request may be accepted
	 */
	public static boolean anyAccepts(Map<String, IdempotencyProperties.Operation> operations) {
		return operations.values().stream().anyMatch((operation) -> operation.getAcceptAfter() != null);
	}

	/**
	 * Return whether an operation sets {@code accept-after}.
	 * @param properties the settings
	 * @param operation the operation
	 * @return whether its requests may be accepted
	 */
	public static boolean accepts(IdempotencyProperties properties, String operation) {
		IdempotencyProperties.Operation settings = properties.getOperations().get(operation);
		return settings != null && settings.getAcceptAfter() != null;
	}

}
