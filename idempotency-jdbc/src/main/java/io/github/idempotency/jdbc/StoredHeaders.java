package io.github.idempotency.jdbc;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The text form in which stored response headers are kept: one {@code Name: value} line each.
 */
final class StoredHeaders {

	private StoredHeaders() {
	}

	/**
	 * Encode headers, one line per value.
	 * @param headers the headers
	 * @return the text form
	 */
	public static String encode(Map<String, List<String>> headers) {
		StringBuilder text = new StringBuilder();
		headers.forEach((name, values) -> values.forEach((value) -> text.append(name)
			.append(": ")
			.append(value.replace('\r', ' ').replace('\n', ' '))
			.append('\n')));
		return text.toString();
	}

	/**
	 * Decode the text form.
	 * @param text the text form, may be {@code null}
	 * @return the headers
	 */
	public static Map<String, List<String>> decode(String text) {
		if (text == null || text.isEmpty()) {
			return Collections.emptyMap();
		}
		Map<String, List<String>> headers = new LinkedHashMap<>();
		for (String line : text.split("\n")) {
			int colon = line.indexOf(": ");
			if (colon > 0) {
				headers.computeIfAbsent(line.substring(0, colon), (name) -> new ArrayList<>(1))
					.add(line.substring(colon + 2));
			}
		}
		return headers;
	}

}
