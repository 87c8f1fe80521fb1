package io.github.idempotency.web;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * The allow-list of response headers that are stored and replayed: {@code Content-Type},
 * {@code Location} and configured ones. Credentials, cookies and hop-by-hop headers are never
 * stored, even if configured.
 */
public final class StoredHeaderPolicy {

	/**
	 * Header that marks a replayed response.
	 */
	public static final String REPLAYED_HEADER = "Idempotent-Replayed";

	/**
	 * Headers that are stored by default.
	 */
	public static final List<String> DEFAULT_HEADERS = List.of("Content-Type", "Location");

	private static final Set<String> FORBIDDEN = Set.of("set-cookie", "set-cookie2", "authorization",
			"proxy-authorization", "proxy-authenticate", "connection", "keep-alive", "proxy-connection", "te",
			"trailer", "transfer-encoding", "upgrade", "content-length",
			REPLAYED_HEADER.toLowerCase(Locale.ROOT));

	private final List<String> headers;

	/**
	 * Create a policy that stores the default headers and the given ones.
	 * @param additionalHeaders further headers to store
	 * @throws IllegalArgumentException if a header must never be stored
	 */
	public StoredHeaderPolicy(Collection<String> additionalHeaders) {
		Map<String, String> names = new LinkedHashMap<>();
		DEFAULT_HEADERS.forEach((name) -> names.put(name.toLowerCase(Locale.ROOT), name));
		for (String header : additionalHeaders) {
			String lowerCaseName = header.toLowerCase(Locale.ROOT);
			if (FORBIDDEN.contains(lowerCaseName)) {
				throw new IllegalArgumentException("The response header '" + header
						+ "' must never be stored for replay: it carries credentials or is hop-by-hop");
			}
			names.putIfAbsent(lowerCaseName, header);
		}
		this.headers = List.copyOf(names.values());
	}

	/**
	 * Return the names of the headers this policy stores.
	 * @return the header names
	 */
	public List<String> headers() {
		return this.headers;
	}

	/**
	 * Select the headers to store from a response.
	 * @param contentType the response's content type, or {@code null}
	 * @param values the values of a response header, by name, or an empty or {@code null} collection
	 * @return the stored headers, in the policy's order
	 */
	public Map<String, List<String>> select(@Nullable String contentType,
			Function<String, @Nullable Collection<String>> values) {
		Map<String, List<String>> selected = new LinkedHashMap<>();
		for (String name : this.headers) {
			if ("Content-Type".equalsIgnoreCase(name)) {
				if (contentType != null) {
					selected.put("Content-Type", List.of(contentType));
				}
				continue;
			}
			Collection<String> found = values.apply(name);
			if (found != null && !found.isEmpty()) {
				selected.put(name, new ArrayList<>(found));
			}
		}
		return selected;
	}

}
