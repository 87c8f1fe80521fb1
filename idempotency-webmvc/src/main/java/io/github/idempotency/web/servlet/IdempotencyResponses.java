package io.github.idempotency.web.servlet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

import io.github.idempotency.IdempotencyException;
import io.github.idempotency.fingerprint.CanonicalJson;
import io.github.idempotency.store.StoredResponse;

/**
 * Writes what the starter answers itself: replays of stored responses and RFC 9457 problems.
 */
final class IdempotencyResponses {

	/**
	 * Header that marks a replayed response.
	 */
	public static final String REPLAYED_HEADER = "Idempotent-Replayed";

	/**
	 * Media type of every problem the starter writes.
	 */
	public static final String PROBLEM_JSON = "application/problem+json";

	private IdempotencyResponses() {
	}

	/**
	 * Write a stored response, byte for byte, marked as replayed.
	 * @param response the response to write to
	 * @param stored the stored response
	 * @throws IOException if writing fails
	 */
	static void writeReplay(HttpServletResponse response, StoredResponse stored) throws IOException {
		response.setStatus(stored.status());
		for (Map.Entry<String, List<String>> header : stored.headers().entrySet()) {
			if ("Content-Type".equalsIgnoreCase(header.getKey())) {
				response.setContentType(header.getValue().get(0));
				continue;
			}
			for (String value : header.getValue()) {
				response.addHeader(header.getKey(), value);
			}
		}
		response.setHeader(REPLAYED_HEADER, "true");
		response.setContentLength(stored.body().length);
		response.getOutputStream().write(stored.body());
		response.flushBuffer();
	}

	/**
	 * Return a problem body for a status that a handler sent without a body of its own.
	 * @param status the status
	 * @param instance the request path
	 * @return the body
	 */
	static byte[] statusProblem(int status, String instance) {
		HttpStatus resolved = HttpStatus.resolve(status);
		return problem("about:blank", (resolved != null) ? resolved.getReasonPhrase() : "Error", status, null,
				instance);
	}

	private static byte[] problem(String type, String title, int status, String detail, String instance) {
		StringBuilder json = new StringBuilder(256);
		json.append("{\"type\":").append(CanonicalJson.quote(type));
		json.append(",\"title\":").append(CanonicalJson.quote(title));
		json.append(",\"status\":").append(status);
		if (detail != null) {
			json.append(",\"detail\":").append(CanonicalJson.quote(detail));
		}
		json.append(",\"instance\":").append(CanonicalJson.quote(instance)).append('}');
		return json.toString().getBytes(StandardCharsets.UTF_8);
	}

}
