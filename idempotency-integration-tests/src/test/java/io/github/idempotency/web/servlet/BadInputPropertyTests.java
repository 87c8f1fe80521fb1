package io.github.idempotency.web.servlet;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import io.github.idempotency.fingerprint.CanonicalJson;
import io.github.idempotency.test.RawHttp;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Property-based tests over keys and bodies sent over real HTTP to real PostgreSQL: malformed,
 * oversized, unicode and control characters, duplicate and reordered JSON members each get the
 * right 4xx or the right replay, never a 5xx, and a refused request never leaves a record.
 */
class BadInputPropertyTests {

	private static final int MAX_BODY = 2048;

	private static ConfigurableApplicationContext context;

	private static JdbcTemplate jdbc;

	private static int port;

	@BeforeContainer
	static void startApplication() {
		PostgresTestDatabase database = PostgresTestDatabase.create("webprops");
		context = new SpringApplicationBuilder(WebTestApplication.class)
			.properties("server.port=0", "spring.datasource.url=" + database.url(),
					"spring.datasource.username=" + database.username(),
					"spring.datasource.password=" + database.password(),
					"spring.flyway.locations=classpath:db/webtest", "idempotency.max-body-size=" + MAX_BODY + "B",
					"logging.level.root=WARN")
			.run();
		jdbc = context.getBean(JdbcTemplate.class);
		port = ((WebServerApplicationContext) context).getWebServer().getPort();
	}

	@AfterContainer
	static void stopApplication() {
		context.close();
	}

	@Property(tries = 300)
	void headerKeysAreAcceptedExactlyWhenValidAndRefusedKeysLeaveNothing(@ForAll("keys") String key) {
		String tenant = "t-" + UUID.randomUUID();
		String value = UUID.randomUUID().toString();
		long recordsBefore = records();
		byte[] sent = key.getBytes(StandardCharsets.UTF_8);
		boolean valid = KeyOracle.isValid(new String(sent, StandardCharsets.ISO_8859_1));
		RawHttp.Response response = RawHttp.post(port, "/effects",
				new byte[][] { ("X-Tenant-Id: " + tenant).getBytes(StandardCharsets.US_ASCII),
						concat("Idempotency-Key: ".getBytes(StandardCharsets.US_ASCII), sent) },
				json(Map.of("value", value)));
		Statistics.collect(valid ? "valid" : "invalid", response.status());
		assertThat(response.status()).as("status for key %s", escape(key)).isLessThan(500);
		if (valid) {
			assertThat(response.status()).as("status for valid key %s", escape(key)).isEqualTo(201);
			assertThat(effects(value)).isEqualTo(1);
			assertThat(recordsOf(tenant)).isEqualTo(1);
		}
		else {
			assertThat(response.status()).as("status for invalid key %s", escape(key)).isEqualTo(400);
			assertThat(effects(value)).isZero();
			assertThat(records()).isEqualTo(recordsBefore);
		}
	}

	@Property(tries = 100)
	void reorderedMembersAndWhitespaceReplayTheFirstResponseByteForByte(@ForAll("documents") Map<String, Object> doc,
			@ForAll long seed) {
		String value = UUID.randomUUID().toString();
		Map<String, Object> document = new LinkedHashMap<>(doc);
		document.put("value", value);
		String key = UUID.randomUUID().toString();
		RawHttp.Response first = post(key, render(document, new Random(seed)));
		RawHttp.Response second = post(key, render(document, new Random(~seed)));
		assertThat(first.status()).isEqualTo(201);
		assertThat(second.status()).isEqualTo(201);
		assertThat(second.headers()).containsEntry("idempotent-replayed", "true");
		assertThat(second.body()).isEqualTo(first.body());
		assertThat(effects(value)).isEqualTo(1);
	}

	@Property(tries = 100)
	void anyChangedValueIsRefusedAsADifferentRequest(@ForAll("documents") Map<String, Object> doc,
			@ForAll long seed) {
		String value = UUID.randomUUID().toString();
		Map<String, Object> document = new LinkedHashMap<>(doc);
		document.put("value", value);
		Map<String, Object> changed = new LinkedHashMap<>(document);
		changed.put("extra", (document.get("extra") instanceof String) ? 1 : "changed");
		String key = UUID.randomUUID().toString();
		assertThat(post(key, render(document, new Random(seed))).status()).isEqualTo(201);
		RawHttp.Response other = post(key, render(changed, new Random(seed)));
		assertThat(other.status()).isEqualTo(422);
		assertThat(other.text()).contains("urn:problem-type:idempotency:key-reused");
		assertThat(effects(value)).isEqualTo(1);
	}

	@Property(tries = 50)
	void duplicateMembersAreRefusedAndNothingIsStored(@ForAll("documents") Map<String, Object> doc) {
		String value = UUID.randomUUID().toString();
		String key = UUID.randomUUID().toString();
		String body = render(doc, new Random(1)).replaceFirst("^\\s*\\{",
				"{\"value\":\"" + value + "\",\"value\":\"" + value + "-twin\",");
		RawHttp.Response response = post(key, body.replace(",}", "}"));
		assertThat(response.status()).isEqualTo(400);
		assertThat(recordsWithKey(key)).isZero();
		assertThat(effects(value) + effects(value + "-twin")).isZero();
	}

	@Property(tries = 60)
	void bodiesAreAcceptedUpToTheLimitAndRefusedWith413Above(@ForAll @IntRange(min = -64, max = 64) int overLimit) {
		String value = UUID.randomUUID().toString();
		String key = UUID.randomUUID().toString();
		String prefix = "{\"value\":\"" + value + "\",\"padding\":\"";
		int padding = MAX_BODY + overLimit - prefix.length() - 2;
		String body = prefix + "x".repeat(padding) + "\"}";
		RawHttp.Response response = post(key, body);
		if (body.length() <= MAX_BODY) {
			assertThat(response.status()).isEqualTo(201);
			assertThat(effects(value)).isEqualTo(1);
		}
		else {
			assertThat(response.status()).isEqualTo(413);
			assertThat(recordsWithKey(key)).isZero();
			assertThat(effects(value)).isZero();
		}
	}

	@Provide
	Arbitrary<String> keys() {
		Arbitrary<String> printable = Arbitraries.strings().withCharRange(' ', '~').ofMinLength(0).ofMaxLength(300);
		Arbitrary<String> unicode = Arbitraries.strings().all().ofMinLength(1).ofMaxLength(40)
			.filter((s) -> s.indexOf('\r') < 0 && s.indexOf('\n') < 0);
		Arbitrary<String> controls = Arbitraries.strings().withCharRange('\u0000', '\u001f')
			.withCharRange('a', 'c')
			.ofMinLength(1)
			.ofMaxLength(10)
			.filter((s) -> s.indexOf('\r') < 0 && s.indexOf('\n') < 0);
		Arbitrary<String> quoted = Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(260)
			.map((s) -> "\"" + s + "\"");
		Arbitrary<String> escaped = Arbitraries.strings().withChars('a', 'b', '"', '\\').ofMaxLength(12)
			.map((s) -> "\"" + s + "\"");
		Arbitrary<String> boundary = Arbitraries.integers().between(253, 258).map((n) -> "k".repeat(n));
		return Arbitraries.oneOf(printable, unicode, controls, quoted, escaped, boundary);
	}

	@Provide
	Arbitrary<Map<String, Object>> documents() {
		Arbitrary<Object> leaf = Arbitraries.oneOf(Arbitraries.strings().all().ofMaxLength(12).map((s) -> (Object) s),
				Arbitraries.integers().map((i) -> (Object) i),
				Arbitraries.bigDecimals().ofScale(3).between(BigDecimal.valueOf(-1000), BigDecimal.valueOf(1000))
					.map((d) -> (Object) d),
				Arbitraries.of(true, false).map((b) -> (Object) b));
		Arbitrary<Object> nested = Arbitraries.maps(Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(6), leaf)
			.ofMaxSize(4)
			.map((m) -> (Object) m);
		Arbitrary<Object> list = leaf.list().ofMaxSize(4).map((l) -> (Object) l);
		return Combinators.combine(
				Arbitraries.maps(Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(8)
					.filter((name) -> !name.equals("value")), Arbitraries.oneOf(leaf, nested, list)).ofMaxSize(6),
				leaf)
			.as((members, extra) -> {
				Map<String, Object> document = new LinkedHashMap<>(members);
				document.put("extra", extra);
				return document;
			});
	}

	/**
	 * Render a document as JSON with members in a random order, random whitespace and decimals
	 * with random trailing zeros, all of which must not count as a different request.
	 */
	@SuppressWarnings("unchecked")
	static String render(Object value, Random random) {
		if (value instanceof Map<?, ?> map) {
			List<Map.Entry<String, Object>> members = new ArrayList<>(((Map<String, Object>) map).entrySet());
			Collections.shuffle(members, random);
			StringBuilder json = new StringBuilder("{").append(space(random));
			for (int i = 0; i < members.size(); i++) {
				if (i > 0) {
					json.append(',').append(space(random));
				}
				json.append(CanonicalJson.quote(members.get(i).getKey()))
					.append(space(random))
					.append(':')
					.append(space(random))
					.append(render(members.get(i).getValue(), random));
			}
			return json.append(space(random)).append('}').toString();
		}
		if (value instanceof List<?> list) {
			StringBuilder json = new StringBuilder("[");
			for (int i = 0; i < list.size(); i++) {
				json.append((i > 0) ? "," + space(random) : "").append(render(list.get(i), random));
			}
			return json.append(']').toString();
		}
		if (value instanceof String string) {
			return CanonicalJson.quote(string);
		}
		if (value instanceof BigDecimal decimal) {
			return decimal.setScale(decimal.scale() + random.nextInt(3)).toPlainString();
		}
		return String.valueOf(value);
	}

	private static String space(Random random) {
		return " \n\t  ".substring(0, random.nextInt(4));
	}

	private static RawHttp.Response post(String key, String body) {
		return RawHttp.post(port, "/effects",
				new byte[][] { ("Idempotency-Key: " + key).getBytes(StandardCharsets.US_ASCII) },
				body.getBytes(StandardCharsets.UTF_8));
	}

	private static byte[] json(Map<String, Object> document) {
		return render(document, new Random(0)).getBytes(StandardCharsets.UTF_8);
	}

	private static long effects(String value) {
		return jdbc.queryForObject("SELECT count(*) FROM effect WHERE endpoint = 'effects' AND detail = ?", Long.class,
				value);
	}

	private static long records() {
		return jdbc.queryForObject("SELECT count(*) FROM idempotency_record", Long.class);
	}

	private static long recordsOf(String tenant) {
		return jdbc.queryForObject("SELECT count(*) FROM idempotency_record WHERE tenant_id = ?", Long.class, tenant);
	}

	private static long recordsWithKey(String key) {
		return jdbc.queryForObject("SELECT count(*) FROM idempotency_record WHERE idempotency_key = ?", Long.class,
				key);
	}

	private static byte[] concat(byte[] first, byte[] second) {
		byte[] joined = new byte[first.length + second.length];
		System.arraycopy(first, 0, joined, 0, first.length);
		System.arraycopy(second, 0, joined, first.length, second.length);
		return joined;
	}

	private static String escape(String key) {
		StringBuilder escaped = new StringBuilder();
		key.chars().forEach((c) -> escaped.append((c >= 0x20 && c < 0x7f) ? String.valueOf((char) c)
				: String.format("\\u%04x", c)));
		return escaped.toString();
	}

	/**
	 * What a key header, as the server decodes its bytes, must look like after HTTP strips
	 * surrounding whitespace: 1 to 255 printable ASCII characters, or an RFC 8941 string that
	 * quotes them.
	 */
	static final class KeyOracle {

		static boolean isValid(String sent) {
			String key = strip(sent);
			if (key.startsWith("\"")) {
				key = unquote(key);
				if (key == null) {
					return false;
				}
			}
			return !key.isEmpty() && key.length() <= 255 && key.chars().allMatch((c) -> c >= 0x20 && c <= 0x7e);
		}

		private static String strip(String value) {
			int start = 0;
			int end = value.length();
			while (start < end && (value.charAt(start) == ' ' || value.charAt(start) == '\t')) {
				start++;
			}
			while (end > start && (value.charAt(end - 1) == ' ' || value.charAt(end - 1) == '\t')) {
				end--;
			}
			return value.substring(start, end);
		}

		private static String unquote(String quoted) {
			if (quoted.length() < 2 || !quoted.endsWith("\"")) {
				return null;
			}
			StringBuilder key = new StringBuilder();
			for (int i = 1; i < quoted.length() - 1; i++) {
				char c = quoted.charAt(i);
				if (c == '"') {
					return null;
				}
				if (c == '\\') {
					if (i + 1 >= quoted.length() - 1 || (quoted.charAt(i + 1) != '"' && quoted.charAt(i + 1) != '\\')) {
						return null;
					}
					c = quoted.charAt(++i);
				}
				key.append(c);
			}
			return key.toString();
		}

	}

}
