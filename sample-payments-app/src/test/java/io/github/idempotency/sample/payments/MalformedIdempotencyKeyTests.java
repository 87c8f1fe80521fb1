package io.github.idempotency.sample.payments;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.support.PaymentsHttpTest;
import io.github.idempotency.sample.support.RawHttp;

import static io.github.idempotency.sample.support.Payments.body;
import static io.github.idempotency.sample.support.Payments.customer;
import static io.github.idempotency.sample.support.Payments.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Malformed {@code Idempotency-Key} headers are refused with a 400 problem before anything is
 * stored or charged (SPEC 4 and 10), on PostgreSQL.
 */
class MalformedIdempotencyKeyTests extends PaymentsHttpTest {

	private static final String INVALID_KEY = "urn:problem-type:idempotency:invalid-key";

	@Test
	void refusesEmptyKey() {
		assertRefused(this.http.post("/payments").key("").json(body(customer("c-"), 100, "USD")).send());
	}

	@Test
	void refusesKeyOf256Characters() {
		assertRefused(this.http.post("/payments").key("k".repeat(256)).json(body(customer("c-"), 100, "USD")).send());
	}

	@Test
	void acceptsKeyOf255Characters() {
		HttpResponse<byte[]> response = this.http.post("/payments")
			.key("k".repeat(255))
			.json(body(customer("c-"), 100, "USD"))
			.send();
		assertThat(response.statusCode()).isEqualTo(201);
		assertThat(this.db.recordStatus("k".repeat(255))).isEqualTo("COMPLETED");
	}

	@Test
	void refusesNonAsciiKey() {
		byte[] header = "Idempotency-Key: cl\u00e9-\u043a\u043b\u044e\u0447".getBytes(StandardCharsets.UTF_8);
		assertRefused(RawHttp.post(this.port, "/payments", header, body(customer("c-"), 100, "USD")));
	}

	/**
	 * Tomcat refuses control characters other than tab in any header value with its own 400
	 * page, so such a key never reaches the application.
	 */
	@ParameterizedTest
	@ValueSource(strings = { "\u0001", "\u001b", "\u007f" })
	void refusesKeyWithControlCharacterInTheServerBeforeAnythingIsStored(String control) {
		byte[] header = ("Idempotency-Key: abc" + control + "def").getBytes(StandardCharsets.US_ASCII);
		RawHttp.Response response = RawHttp.post(this.port, "/payments", header, body(customer("c-"), 100, "USD"));
		assertThat(response.status()).as(response.head()).isEqualTo(400);
		assertNothingStored();
	}

	@Test
	void refusesKeyWithTabAsControlCharacter() {
		assertRefused(this.http.post("/payments").key("abc\tdef").json(body(customer("c-"), 100, "USD")).send());
	}

	@Test
	void refusesKeyHeaderSentTwice() {
		assertRefused(this.http.post("/payments")
			.key("first-key")
			.key("second-key")
			.json(body(customer("c-"), 100, "USD"))
			.send());
	}

	@Test
	void acceptsQuotedStructuredFieldStringKey() {
		HttpResponse<byte[]> response = this.http.post("/payments")
			.key("\"abc\"")
			.json(body(customer("c-"), 100, "USD"))
			.send();
		assertThat(response.statusCode()).isEqualTo(201);
		assertThat(this.db.recordStatus("abc")).isEqualTo("COMPLETED");
		assertThat(this.db.payments()).isOne();
		assertThat(this.db.charges()).isOne();
	}

	private void assertRefused(HttpResponse<byte[]> response) {
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertRefusedProblem(json(response));
	}

	private void assertRefused(RawHttp.Response response) {
		assertThat(response.status()).as(response.head()).isEqualTo(400);
		assertThat(response.header("Content-Type")).isEqualTo("application/problem+json");
		assertRefusedProblem(json(response.body()));
	}

	private void assertRefusedProblem(JsonNode problem) {
		assertThat(problem.get("type").asString()).isEqualTo(INVALID_KEY);
		assertThat(problem.get("status").asInt()).isEqualTo(400);
		assertNothingStored();
	}

	private void assertNothingStored() {
		assertThat(this.db.records()).isZero();
		assertThat(this.db.payments()).isZero();
		assertThat(this.db.charges()).isZero();
	}

}
