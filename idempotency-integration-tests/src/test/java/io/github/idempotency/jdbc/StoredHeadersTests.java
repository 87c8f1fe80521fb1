package io.github.idempotency.jdbc;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * Tests for {@link StoredHeaders}.
 */
class StoredHeadersTests {

	@Test
	void headersSurviveARoundTripInOrderWithEveryValue() {
		Map<String, List<String>> headers = new LinkedHashMap<>();
		headers.put("Location", List.of("/payments/42"));
		headers.put("Content-Type", List.of("application/json;charset=UTF-8"));
		headers.put("X-Trace", List.of("first", "second: with colon", "third,with,commas"));
		headers.put("ETag", List.of("W/\"abc\""));
		assertThat(StoredHeaders.decode(StoredHeaders.encode(headers))).containsExactly(
				entry("Location", List.of("/payments/42")),
				entry("Content-Type", List.of("application/json;charset=UTF-8")),
				entry("X-Trace", List.of("first", "second: with colon", "third,with,commas")),
				entry("ETag", List.of("W/\"abc\"")));
	}

	@Test
	void emptyValuesSurviveARoundTrip() {
		Map<String, List<String>> headers = Map.of("X-Empty", List.of(""));
		assertThat(StoredHeaders.decode(StoredHeaders.encode(headers))).isEqualTo(headers);
	}

	@Test
	void noHeadersEncodeToEmptyText() {
		assertThat(StoredHeaders.encode(Map.of())).isEmpty();
		assertThat(StoredHeaders.decode("")).isEmpty();
		assertThat(StoredHeaders.decode(null)).isEmpty();
	}

	@Test
	void lineBreaksInValuesCannotInjectHeaders() {
		Map<String, List<String>> headers = Map.of("X-Note", List.of("a\r\nSet-Cookie: session=stolen\nb"));
		Map<String, List<String>> decoded = StoredHeaders.decode(StoredHeaders.encode(headers));
		assertThat(decoded).containsOnlyKeys("X-Note");
		assertThat(decoded.get("X-Note")).singleElement().asString().doesNotContain("\r", "\n");
	}

	@Test
	void linesWithoutASeparatorAreIgnored() {
		assertThat(StoredHeaders.decode("Location: /a\ngarbage\n: no name\nETag: 1\n"))
			.containsExactly(entry("Location", List.of("/a")), entry("ETag", List.of("1")));
	}

}
