package io.github.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The form in which stored response headers are kept in a record: each name and value prefixed by
 * its length, in order, so that order, repeated values and any character survive.
 */
final class RedisHeaders {

	private RedisHeaders() {
	}

	static byte[] encode(Map<String, List<String>> headers) {
		StringBuilder text = new StringBuilder();
		headers.forEach((name, values) -> values.forEach((value) -> {
			append(name, text);
			append(value, text);
		}));
		return text.toString().getBytes(StandardCharsets.UTF_8);
	}

	static Map<String, List<String>> decode(byte[] encoded) {
		if (encoded.length == 0) {
			return Collections.emptyMap();
		}
		String text = new String(encoded, StandardCharsets.UTF_8);
		Map<String, List<String>> headers = new LinkedHashMap<>();
		int[] position = { 0 };
		while (position[0] < text.length()) {
			String name = next(text, position);
			headers.computeIfAbsent(name, (key) -> new ArrayList<>(1)).add(next(text, position));
		}
		return headers;
	}

	private static void append(String value, StringBuilder text) {
		text.append(value.length()).append(':').append(value);
	}

	private static String next(String text, int[] position) {
		int colon = text.indexOf(':', position[0]);
		if (colon < 0) {
			throw new IllegalStateException("Stored response headers are corrupt");
		}
		int start = colon + 1;
		int end = start + Integer.parseInt(text, position[0], colon, 10);
		position[0] = end;
		return text.substring(start, end);
	}

}
