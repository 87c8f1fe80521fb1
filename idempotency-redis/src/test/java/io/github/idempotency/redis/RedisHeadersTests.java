package io.github.idempotency.redis;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * The stored form of response headers keeps their order, their repeated values and every
 * character.
 */
class RedisHeadersTests {

	@Test
	void orderAndRepeatedValuesSurvive() {
		Map<String, List<String>> headers = new LinkedHashMap<>();
		headers.put("Location", List.of("/payments/42"));
		headers.put("Content-Type", List.of("application/json"));
		headers.put("X-Trace", List.of("a", "b: c", "", "12:34"));
		assertThat(RedisHeaders.decode(RedisHeaders.encode(headers))).containsExactly(
				entry("Location", List.of("/payments/42")), entry("Content-Type", List.of("application/json")),
				entry("X-Trace", List.of("a", "b: c", "", "12:34")));
	}

	@Test
	void noHeadersAreEmpty() {
		assertThat(RedisHeaders.encode(Map.of())).isEmpty();
		assertThat(RedisHeaders.decode(new byte[0])).isEmpty();
	}

	@Provide
	Arbitrary<Map<String, List<String>>> headers() {
		Arbitrary<String> names = Arbitraries.strings().ofMinLength(1).ofMaxLength(12).withCharRange('!', '~');
		Arbitrary<List<String>> values = Arbitraries.strings()
			.withCharRange(' ', '\u00ff')
			.withChars('\r', '\n', ':', '1', '9')
			.ofMaxLength(20)
			.list()
			.ofMinSize(1)
			.ofMaxSize(3);
		return Arbitraries.maps(names, values).ofMaxSize(6).map(LinkedHashMap::new);
	}

	@Property(tries = 500)
	void anyHeadersSurviveExactly(@ForAll("headers") Map<String, List<String>> headers) {
		assertThat(RedisHeaders.decode(RedisHeaders.encode(headers))).containsExactlyEntriesOf(headers);
	}

}
