package io.github.idempotency;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link IdempotencyKeys}.
 */
class IdempotencyKeysTests {

	@Test
	void acceptsAKeyOfPrintableAscii() {
		String key = "0b7b5c1e-AZaz09 !#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
		assertThat(IdempotencyKeys.parseHeader(key)).isEqualTo(key);
	}

	@Test
	void refusesAnEmptyKey() {
		assertRefused("", "must not be empty");
	}

	@Test
	void acceptsAKeyOf255Characters() {
		String key = "k".repeat(255);
		assertThat(IdempotencyKeys.parseHeader(key)).isEqualTo(key);
	}

	@Test
	void refusesAKeyOf256Characters() {
		assertRefused("k".repeat(256), "at most 255 characters");
	}

	@ParameterizedTest
	@ValueSource(strings = { "tab\tkey", "new\nline", "carriage\rreturn", "nul\u0000", "bell\u0007", "delete\u007f",
			"\u001b[31m" })
	void refusesControlCharacters(String key) {
		assertRefused(key, "printable ASCII");
	}

	@ParameterizedTest
	@ValueSource(strings = { "clé", "日本語", "emoji-\uD83D\uDE00", "non\u00a0breaking" })
	void refusesCharactersOutsideAscii(String key) {
		assertRefused(key, "printable ASCII");
	}

	@Test
	void acceptsAQuotedStructuredFieldString() {
		assertThat(IdempotencyKeys.parseHeader("\"8e03978e-40d5-43e8-bc93-6894a57f9324\""))
			.isEqualTo("8e03978e-40d5-43e8-bc93-6894a57f9324");
	}

	@Test
	void unescapesQuotesAndBackslashesInAQuotedKey() {
		assertThat(IdempotencyKeys.parseHeader("\"say \\\"hi\\\" \\\\ bye\"")).isEqualTo("say \"hi\" \\ bye");
	}

	@Test
	void appliesTheLengthLimitToTheUnquotedKey() {
		assertThat(IdempotencyKeys.parseHeader("\"" + "q".repeat(255) + "\"")).hasSize(255);
		assertRefused("\"" + "q".repeat(256) + "\"", "at most 255 characters");
	}

	@ParameterizedTest
	@ValueSource(strings = { "\"", "\"unterminated", "\"ends with escaped quote\\\"" })
	void refusesAnUnterminatedQuotedKey(String key) {
		assertThatExceptionOfType(InvalidIdempotencyKeyException.class)
			.isThrownBy(() -> IdempotencyKeys.parseHeader(key));
	}

	@ParameterizedTest
	@ValueSource(strings = { "\"bad \\n escape\"", "\"bad \\u0041 escape\"", "\"trailing backslash\\\"x\\\"" })
	void refusesInvalidEscapesInAQuotedKey(String key) {
		assertThatExceptionOfType(InvalidIdempotencyKeyException.class)
			.isThrownBy(() -> IdempotencyKeys.parseHeader(key));
	}

	@Test
	void refusesAnUnescapedQuoteInsideAQuotedKey() {
		assertRefused("\"one\"two\"", "unescaped quote");
	}

	@Test
	void refusesAnEmptyQuotedKey() {
		assertRefused("\"\"", "must not be empty");
	}

	@Test
	void refusesControlCharactersInsideAQuotedKey() {
		assertRefused("\"line\nbreak\"", "printable ASCII");
	}

	@Test
	void refusedKeysAreReportedAsInvalidKeyProblems() {
		assertThatExceptionOfType(InvalidIdempotencyKeyException.class)
			.isThrownBy(() -> IdempotencyKeys.parseHeader(""))
			.satisfies((ex) -> assertThat(ex.getBody().getType()).hasToString("urn:problem-type:idempotency:invalid-key"));
	}

	@Test
	void keepsADerivedValueThatIsShapedLikeAKey() {
		assertThat(IdempotencyKeys.fromDerivedValue("webhook:evt_1NqFz2")).isEqualTo("webhook:evt_1NqFz2");
		assertThat(IdempotencyKeys.fromDerivedValue("d".repeat(255))).isEqualTo("d".repeat(255));
	}

	@Test
	void hashesADerivedValueThatIsTooLong() {
		String derived = "d".repeat(256);
		assertThat(IdempotencyKeys.fromDerivedValue(derived)).isEqualTo("sha256:" + KeyHashes.sha256Hex(derived));
	}

	@Test
	void hashesADerivedValueThatIsNotPrintableAscii() {
		assertThat(IdempotencyKeys.fromDerivedValue("order:clé"))
			.isEqualTo("sha256:" + KeyHashes.sha256Hex("order:clé"));
		assertThat(IdempotencyKeys.fromDerivedValue("line\nbreak")).startsWith("sha256:");
	}

	@Test
	void hashedDerivedValuesAreDistinctValidKeys() {
		String first = IdempotencyKeys.fromDerivedValue("événement-1");
		String second = IdempotencyKeys.fromDerivedValue("événement-2");
		assertThat(first).isNotEqualTo(second).matches("sha256:[0-9a-f]{64}");
		assertThat(IdempotencyKeys.fromDerivedValue("événement-1")).isEqualTo(first);
		assertThat(IdempotencyKeys.parseHeader(first)).isEqualTo(first);
	}

	private static void assertRefused(String key, String message) {
		assertThatExceptionOfType(InvalidIdempotencyKeyException.class)
			.isThrownBy(() -> IdempotencyKeys.parseHeader(key))
			.withMessageContaining(message);
	}

}
