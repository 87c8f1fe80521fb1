package io.github.idempotency.fingerprint;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link CanonicalJson}.
 */
class CanonicalJsonTests {

	@Test
	void sortsMembersAndDropsWhitespace() {
		assertThat(canonical("{ \"b\" : [ 1 , 2 ] ,\n\t\"a\" : { \"d\" : true , \"c\" : null } }"))
			.isEqualTo("{\"a\":{\"c\":null,\"d\":true},\"b\":[1,2]}");
	}

	@Test
	void memberOrderAndWhitespaceDoNotChangeTheForm() {
		assertSame("{\"amount\":100,\"currency\":\"EUR\",\"meta\":{\"x\":1,\"y\":2}}",
				"{\n  \"meta\": {\"y\": 2, \"x\": 1},\n  \"currency\": \"EUR\",\n  \"amount\": 100\n}\n");
	}

	@ParameterizedTest
	@ValueSource(strings = { "1.0", "1.00", "1e0", "1E0", "10e-1", "0.1e1", "1.000000000000000000000000" })
	void numbersOfEqualValueHaveOneForm(String number) {
		assertSame("{\"n\":1}", "{\"n\":" + number + "}");
	}

	@Test
	void numbersOfDifferentValueDiffer() {
		assertDifferent("{\"n\":1}", "{\"n\":2}");
		assertDifferent("{\"n\":1}", "{\"n\":1.0000000000000000000001}");
		assertDifferent("{\"n\":12345678901234567890}", "{\"n\":12345678901234567891}");
		assertDifferent("{\"n\":1}", "{\"n\":-1}");
	}

	@Test
	void zeroHasOneForm() {
		assertSame("[0]", "[-0]");
		assertSame("[0]", "[0.000]");
		assertSame("[0]", "[0e10]");
	}

	@Test
	void largeAndSmallNumbersKeepTheirValue() {
		assertSame("[100]", "[1e2]");
		assertSame("[0.001]", "[1e-3]");
		assertDifferent("[1e300]", "[1e301]");
	}

	@Test
	void arrayOrderMatters() {
		assertDifferent("[1,2,3]", "[3,2,1]");
		assertDifferent("{\"items\":[{\"id\":1},{\"id\":2}]}", "{\"items\":[{\"id\":2},{\"id\":1}]}");
	}

	@Test
	void typesAreNotConfused() {
		assertDifferent("{\"a\":1}", "{\"a\":\"1\"}");
		assertDifferent("{\"a\":true}", "{\"a\":\"true\"}");
		assertDifferent("{\"a\":null}", "{}");
		assertDifferent("{\"a\":null}", "{\"a\":\"null\"}");
		assertDifferent("{\"a\":[]}", "{\"a\":{}}");
	}

	@Test
	void unicodeEscapesEqualTheRawCharacters() {
		assertSame("{\"name\":\"Zoë ☕ 😀\"}", "{\"n\\u0061me\":\"Zo\\u00eb \\u2615 \\ud83d\\ude00\"}");
		assertSame("[\"a/b\"]", "[\"a\\/b\"]");
		assertDifferent("[\"é\"]", "[\"e\"]");
	}

	@Test
	void stringsAreMinimallyEscaped() {
		assertThat(canonical("[\"quote \\\" backslash \\\\ tab \\t nul \\u0000 \\u00e9\"]"))
			.isEqualTo("[\"quote \\\" backslash \\\\ tab \\u0009 nul \\u0000 é\"]");
		assertThat(CanonicalJson.quote("a\"b\\c\nd")).isEqualTo("\"a\\\"b\\\\c\\u000ad\"");
	}

	@Test
	void encodingOfTheInputDoesNotMatter() {
		String json = "{\"b\":\"ü\",\"a\":1}";
		assertThat(CanonicalJson.canonicalize(json.getBytes(StandardCharsets.UTF_16)))
			.isEqualTo(CanonicalJson.canonicalize(json.getBytes(StandardCharsets.UTF_8)));
	}

	@Test
	void duplicateMembersAreRefused() {
		assertThatExceptionOfType(CanonicalJson.DuplicateMemberException.class)
			.isThrownBy(() -> canonical("{\"a\":1,\"a\":2}"))
			.withMessageContaining("'a'");
		assertThatExceptionOfType(CanonicalJson.DuplicateMemberException.class)
			.isThrownBy(() -> canonical("{\"outer\":{\"b\":1,\"c\":2,\"b\":1}}"));
	}

	@Test
	void duplicateMembersAreRefusedWhenTheFirstValueIsNull() {
		assertThatExceptionOfType(CanonicalJson.DuplicateMemberException.class)
			.isThrownBy(() -> canonical("{\"a\":null,\"a\":1}"));
		assertThatExceptionOfType(CanonicalJson.DuplicateMemberException.class)
			.isThrownBy(() -> canonical("{\"a\":null,\"a\":null}"));
	}

	@Test
	void sameNameInDifferentObjectsIsNotADuplicate() {
		assertThat(canonical("{\"a\":{\"id\":1},\"b\":{\"id\":1}}")).isEqualTo("{\"a\":{\"id\":1},\"b\":{\"id\":1}}");
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "   ", "{", "{\"a\":}", "[1,2", "{\"a\" 1}", "not json", "{} {}", "[1] x", "{'a':1}",
			"{\"a\":NaN}", "\"unterminated" })
	void invalidJsonHasNoForm(String json) {
		assertThat(CanonicalJson.canonicalize(json.getBytes(StandardCharsets.UTF_8))).isNull();
	}

	@Test
	void scalarDocumentsHaveAForm() {
		assertThat(canonical(" 1.50 ")).isEqualTo("1.5");
		assertThat(canonical("\"text\"")).isEqualTo("\"text\"");
		assertThat(canonical("null")).isEqualTo("null");
	}

	@Test
	void deeplyNestedDocumentsKeepTheirStructure() {
		int depth = 200;
		String first = "[".repeat(depth) + "{\"b\":1,\"a\":2}" + "]".repeat(depth);
		String second = "[".repeat(depth) + "{ \"a\" : 2 , \"b\" : 1 }" + "]".repeat(depth);
		assertThat(canonical(first)).isEqualTo("[".repeat(depth) + "{\"a\":2,\"b\":1}" + "]".repeat(depth));
		assertSame(first, second);
		assertDifferent(first, "[".repeat(depth - 1) + "{\"b\":1,\"a\":2}" + "]".repeat(depth - 1));
	}

	@Test
	void documentsNestedBeyondTheParserLimitHaveNoForm() {
		int depth = 100_000;
		String json = "[".repeat(depth) + "]".repeat(depth);
		assertThat(CanonicalJson.canonicalize(json.getBytes(StandardCharsets.UTF_8))).isNull();
	}

	private static String canonical(String json) {
		byte[] canonical = CanonicalJson.canonicalize(json.getBytes(StandardCharsets.UTF_8));
		return (canonical != null) ? new String(canonical, StandardCharsets.UTF_8) : null;
	}

	private static void assertSame(String first, String second) {
		assertThat(canonical(first)).isNotNull().isEqualTo(canonical(second));
	}

	private static void assertDifferent(String first, String second) {
		assertThat(canonical(first)).isNotNull().isNotEqualTo(canonical(second));
	}

}
