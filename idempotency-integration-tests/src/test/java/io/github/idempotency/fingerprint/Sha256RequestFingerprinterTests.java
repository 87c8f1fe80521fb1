package io.github.idempotency.fingerprint;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.idempotency.FingerprintRequest;
import io.github.idempotency.MalformedRequestBodyException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link Sha256RequestFingerprinter}.
 */
class Sha256RequestFingerprinterTests {

	private static final String JSON = "application/json";

	private final Sha256RequestFingerprinter fingerprinter = new Sha256RequestFingerprinter();

	@Test
	void fingerprintIsAStableSha256InHex() {
		String fingerprint = fingerprint("POST /payments", "/payments", null, JSON, "{\"amount\":100}");
		assertThat(fingerprint).matches("[0-9a-f]{64}");
		assertThat(fingerprint("POST /payments", "/payments", null, JSON, "{\"amount\":100}")).isEqualTo(fingerprint);
	}

	/**
	 * Records stored before the query and the charset counted as they do now still match their
	 * retries: the fingerprints of requests without a repeated parameter, and of JSON without a
	 * charset or in UTF-8, are the ones computed then.
	 */
	@Test
	void fingerprintsOfRequestsWithoutARepeatedParameterOrACharsetOtherThanUtf8AreAsBefore() {
		String payment = "{\"amount\":100,\"currency\":\"EUR\",\"payee\":\"Zo\u00eb\"}";
		assertThat(fingerprint("POST /payments", "/payments", "expand=customer&dry-run=false", JSON, payment))
			.isEqualTo("b5a47b925eba34a915215b076d180147d5a1a58ccafdaafe511972c8c4347828");
		assertThat(fingerprint("POST /payments", "/payments", "expand=customer&dry-run=false",
				"application/json; charset=UTF-8", payment))
			.isEqualTo("b5a47b925eba34a915215b076d180147d5a1a58ccafdaafe511972c8c4347828");
		assertThat(fingerprint("POST /payments", "/payments", "a=1&a-b=2&a.c=3&flag&ab=4", "application/json", "{}"))
			.isEqualTo("1c3a3eda83867961b000ee0246e910fdd30dacf45cb8dfda55703d64ddaf1d42");
		assertThat(fingerprint("POST /payments", "/payments", "a=1&a=2", JSON, payment)).isEqualTo("ff3069c39f379bc50ad1181a912beacb546a2294831c43857165c673abc45316");
		assertThat(fingerprint("POST /notes", "/notes", "x=1", "text/plain", "a note")).isEqualTo("42daa268a8beb203a855b3f0cc5bd9bc6eb5c6e892a99082f932940b0ada9ce6");
		assertThat(fingerprint("POST /notes", "/notes", null, null, "")).isEqualTo("857dfd8f39876b0153b7dae785c66f079793732efca486767f21fffbb04b44a5");
	}

	@Test
	void operationChangesTheFingerprint() {
		assertThat(fingerprint("POST /payments", "/payments", null, JSON, "{}"))
			.isNotEqualTo(fingerprint("POST /refunds", "/payments", null, JSON, "{}"));
	}

	@Test
	void pathChangesTheFingerprint() {
		assertThat(fingerprint("POST /payments/{id}", "/payments/1", null, JSON, "{}"))
			.isNotEqualTo(fingerprint("POST /payments/{id}", "/payments/2", null, JSON, "{}"));
	}

	@Test
	void partsCannotBeShiftedFromOneFieldToTheNext() {
		assertThat(fingerprint("POST /a", "/bc", null, JSON, "{}"))
			.isNotEqualTo(fingerprint("POST /a/b", "c", null, JSON, "{}"));
		assertThat(fingerprint("op", "/path", "q=1", "text/plain", "body"))
			.isNotEqualTo(fingerprint("op", "/path", "q=1body", "text/plain", ""));
	}

	@Test
	void orderOfQueryParametersDoesNotMatter() {
		assertThat(fingerprint("GET /search", "/search", "a=1&b=2&c=3", null, ""))
			.isEqualTo(fingerprint("GET /search", "/search", "c=3&a=1&b=2", null, ""));
	}

	@Test
	void orderOfTheValuesOfARepeatedQueryParameterMatters() {
		assertThat(fingerprint("GET /routes", "/routes", "via=A&via=B", null, ""))
			.isNotEqualTo(fingerprint("GET /routes", "/routes", "via=B&via=A", null, ""));
	}

	@Test
	void aParameterWithoutAValueIsOrderedWithTheOtherValuesOfItsName() {
		assertThat(fingerprint("GET /routes", "/routes", "via&via=B", null, ""))
			.isNotEqualTo(fingerprint("GET /routes", "/routes", "via=B&via", null, ""));
	}

	@Test
	void repeatedQueryParametersMayBeInterleavedWithOthers() {
		assertThat(fingerprint("GET /routes", "/routes", "via=B&a=1&via=A&z=2", null, ""))
			.isEqualTo(fingerprint("GET /routes", "/routes", "z=2&via=B&via=A&a=1", null, ""))
			.isNotEqualTo(fingerprint("GET /routes", "/routes", "z=2&via=A&via=B&a=1", null, ""));
	}

	@Test
	void valuesOfQueryParametersMatter() {
		assertThat(fingerprint("POST /payments", "/payments", "dry-run=false", JSON, "{}"))
			.isNotEqualTo(fingerprint("POST /payments", "/payments", "dry-run=true", JSON, "{}"));
		assertThat(fingerprint("POST /payments", "/payments", "dry-run=true", JSON, "{}"))
			.isNotEqualTo(fingerprint("POST /payments", "/payments", null, JSON, "{}"));
	}

	@Test
	void absentAndEmptyQueriesAreTheSame() {
		assertThat(fingerprint("POST /payments", "/payments", null, JSON, "{}"))
			.isEqualTo(fingerprint("POST /payments", "/payments", "", JSON, "{}"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "application/json", "application/json; charset=UTF-8", "APPLICATION/JSON",
			"application/merge-patch+json", "application/vnd.api+json" })
	void jsonBodiesAreCanonicalized(String contentType) {
		assertThat(fingerprint("POST /payments", "/payments", null, contentType, "{\"a\":1,\"b\":[1,2]}"))
			.isEqualTo(fingerprint("POST /payments", "/payments", null, contentType,
					"{\n  \"b\": [1, 2],\n  \"a\": 1.0\n}"));
	}

	@Test
	void theSameJsonBytesUnderAnotherCharsetAreAnotherRequest() {
		byte[] zoe = "{\"payee\":\"Zo\u00eb\"}".getBytes(StandardCharsets.UTF_8);
		assertThat(fingerprint("application/json;charset=UTF-8", zoe))
			.isNotEqualTo(fingerprint("application/json;charset=ISO-8859-1", zoe))
			.isNotEqualTo(fingerprint("application/json;charset=windows-1252", zoe));
	}

	@Test
	void jsonIsReadInItsDeclaredCharsetSoTheSameValuesAreTheSameRequest() {
		String zoe = "{\"payee\":\"Zo\u00eb\",\"amount\":1}";
		String reordered = "{ \"amount\": 1, \"payee\": \"Zo\u00eb\" }";
		assertThat(fingerprint("application/json;charset=ISO-8859-1", reordered.getBytes(StandardCharsets.ISO_8859_1)))
			.isEqualTo(fingerprint("application/json;charset=UTF-8", zoe.getBytes(StandardCharsets.UTF_8)))
			.isEqualTo(fingerprint(JSON, zoe.getBytes(StandardCharsets.UTF_8)))
			.isEqualTo(fingerprint("application/json;charset=UTF-16", zoe.getBytes(StandardCharsets.UTF_16)));
	}

	@ParameterizedTest
	@ValueSource(strings = { "application/json", "application/json;charset=UTF-8", "application/json; charset=utf-8",
			"application/json;charset=\"UTF8\"", "Application/JSON; Charset=utf8" })
	void jsonWithoutACharsetIsUtf8AndTheNamesOfUtf8AreOne(String contentType) {
		byte[] zoe = "{\"payee\":\"Zo\u00eb\"}".getBytes(StandardCharsets.UTF_8);
		assertThat(fingerprint(contentType, zoe)).isEqualTo(fingerprint(JSON, zoe));
	}

	@Test
	void theCharsetOfABodyTakenByteForByteCounts() {
		byte[] zoe = "Zo\u00eb".getBytes(StandardCharsets.UTF_8);
		assertThat(fingerprint("text/plain;charset=UTF-8", zoe))
			.isNotEqualTo(fingerprint("text/plain;charset=ISO-8859-1", zoe))
			.isNotEqualTo(fingerprint("text/plain", zoe))
			.isEqualTo(fingerprint("text/plain; charset=\"utf8\"", zoe));
	}

	@Test
	void anUnknownCharsetIsAnotherRequestNotAFailure() {
		byte[] zoe = "{\"payee\":\"Zo\u00eb\"}".getBytes(StandardCharsets.UTF_8);
		assertThat(fingerprint("application/json;charset=no-such-charset", zoe))
			.isNotEqualTo(fingerprint(JSON, zoe))
			.isNotEqualTo(fingerprint("application/json;charset=another-unknown", zoe));
	}

	@Test
	void anyChangedJsonValueChangesTheFingerprint() {
		String original = fingerprint("POST /payments", "/payments", null, JSON,
				"{\"amount\":100,\"currency\":\"EUR\",\"lines\":[1,2]}");
		assertThat(fingerprint("POST /payments", "/payments", null, JSON,
				"{\"amount\":101,\"currency\":\"EUR\",\"lines\":[1,2]}"))
			.isNotEqualTo(original);
		assertThat(fingerprint("POST /payments", "/payments", null, JSON,
				"{\"amount\":100,\"currency\":\"USD\",\"lines\":[1,2]}"))
			.isNotEqualTo(original);
		assertThat(fingerprint("POST /payments", "/payments", null, JSON,
				"{\"amount\":100,\"currency\":\"EUR\",\"lines\":[2,1]}"))
			.isNotEqualTo(original);
	}

	@ParameterizedTest
	@ValueSource(strings = { "text/plain", "application/x-www-form-urlencoded", "application/xml",
			"application/jsonx" })
	void nonJsonBodiesAreTakenByteForByte(String contentType) {
		assertThat(fingerprint("POST /notes", "/notes", null, contentType, "{\"a\":1,\"b\":2}"))
			.isNotEqualTo(fingerprint("POST /notes", "/notes", null, contentType, "{\"b\":2,\"a\":1}"));
		assertThat(fingerprint("POST /notes", "/notes", null, contentType, "same"))
			.isEqualTo(fingerprint("POST /notes", "/notes", null, contentType, "same"));
	}

	@Test
	void bodyWithoutAContentTypeIsTakenByteForByte() {
		assertThat(fingerprint("POST /notes", "/notes", null, null, "{\"a\":1, \"b\":2}"))
			.isNotEqualTo(fingerprint("POST /notes", "/notes", null, null, "{\"a\":1,\"b\":2}"));
	}

	@Test
	void invalidJsonIsTakenByteForByte() {
		assertThat(fingerprint("POST /payments", "/payments", null, JSON, "{\"a\":1,"))
			.isEqualTo(fingerprint("POST /payments", "/payments", null, JSON, "{\"a\":1,"));
		assertThat(fingerprint("POST /payments", "/payments", null, JSON, "{\"a\":1,"))
			.isNotEqualTo(fingerprint("POST /payments", "/payments", null, JSON, "{\"a\": 1,"));
	}

	@Test
	void emptyBodyDiffersFromAnEmptyJsonObject() {
		assertThat(fingerprint("POST /payments", "/payments", null, JSON, ""))
			.isNotEqualTo(fingerprint("POST /payments", "/payments", null, JSON, "{}"));
	}

	@Test
	void jsonWithDuplicateMembersIsRefusedAsMalformed() {
		assertThatExceptionOfType(MalformedRequestBodyException.class)
			.isThrownBy(() -> fingerprint("POST /payments", "/payments", null, JSON, "{\"amount\":1,\"amount\":1000}"))
			.satisfies((ex) -> assertThat(ex.getBody().getType()).hasToString("urn:problem-type:idempotency:malformed-body"));
	}

	private String fingerprint(String contentType, byte[] body) {
		return this.fingerprinter
			.fingerprint(new FingerprintRequest("POST /payments", "/payments", null, contentType, body));
	}

	private String fingerprint(String operation, String path, String query, String contentType, String body) {
		return this.fingerprinter.fingerprint(
				new FingerprintRequest(operation, path, query, contentType, body.getBytes(StandardCharsets.UTF_8)));
	}

}
