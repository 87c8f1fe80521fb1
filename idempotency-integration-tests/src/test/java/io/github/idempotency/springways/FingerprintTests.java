package io.github.idempotency.springways;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.github.idempotency.testsupport.Http;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fingerprint tells different requests apart: uploaded files, extreme numbers, lone
 * surrogates, the content type, its charset and the order of a repeated query parameter.
 */
class FingerprintTests extends SpringWaysTest {

	@Test
	void sameKeyWithAnotherUploadedFileIsAReusedKey() {
		String key = unique();
		HttpResponse<byte[]> first = upload(key, "invoice", "first file".getBytes(StandardCharsets.UTF_8));
		HttpResponse<byte[]> second = upload(key, "invoice", "second file".getBytes(StandardCharsets.UTF_8));
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(second.statusCode()).isEqualTo(422);
		assertThat(this.effects.count("uploads", "invoice-" + key)).isOne();
	}

	@Test
	void sameKeyWithTheSameUploadIsReplayed() {
		String key = unique();
		byte[] file = "the same file".getBytes(StandardCharsets.UTF_8);
		HttpResponse<byte[]> first = upload(key, "invoice", file);
		HttpResponse<byte[]> replay = upload(key, "invoice", file);
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(this.effects.count("uploads", "invoice-" + key)).isOne();
	}

	@Test
	void numberWithAnExponentBeyondAnIntIsFingerprintedNotAServerError() {
		String key = unique();
		HttpResponse<byte[]> first = raw(key, "application/json", "{\"amount\":1e-2147483648}");
		HttpResponse<byte[]> replay = raw(key, "application/json", "{ \"amount\" : 1E-2147483648 }");
		HttpResponse<byte[]> other = raw(key, "application/json", "{\"amount\":1e-2147483647}");
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(replay.statusCode()).isEqualTo(200);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(other.statusCode()).isEqualTo(422);
	}

	@Test
	void loneSurrogateDoesNotCollideWithAQuestionMark() {
		String key = unique();
		HttpResponse<byte[]> first = raw(key, "application/json", "{\"v\":\"\\ud800\"}");
		HttpResponse<byte[]> second = raw(key, "application/json", "{\"v\":\"?\"}");
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(second.statusCode()).isEqualTo(422);
	}

	@Test
	void sameBytesUnderAnotherContentTypeIsAReusedKey() {
		String key = unique();
		HttpResponse<byte[]> first = raw(key, "application/json", "{\"a\":1}");
		HttpResponse<byte[]> second = raw(key, "text/plain", "{\"a\":1}");
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(second.statusCode()).isEqualTo(422);
	}

	@Test
	void sameKeyWithARepeatedQueryParameterInAnotherOrderIsAReusedKey() {
		String key = unique();
		HttpResponse<byte[]> first = route(key, "via=lisbon&via=madrid", "{\"value\":\"" + key + "\",\"weight\":1}");
		HttpResponse<byte[]> reordered = route(key, "via=madrid&via=lisbon",
				"{\"value\":\"" + key + "\",\"weight\":1}");
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(Http.text(first)).contains("[\"lisbon\",\"madrid\"]");
		assertThat(reordered.statusCode()).isEqualTo(422);
		assertThat(this.effects.count("routes", key)).isOne();
	}

	@Test
	void sameRouteWithItsJsonFieldsAndOtherParametersReorderedIsReplayed() {
		String key = unique();
		HttpResponse<byte[]> first = route(key, "via=lisbon&express=true&via=madrid",
				"{\"value\":\"" + key + "\",\"weight\":1}");
		HttpResponse<byte[]> replay = route(key, "express=true&via=lisbon&via=madrid",
				"{ \"weight\": 1, \"value\": \"" + key + "\" }");
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(replay.statusCode()).isEqualTo(200);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(this.effects.count("routes", key)).isOne();
	}

	@Test
	void sameJsonBytesUnderAnotherCharsetIsAReusedKey() {
		String key = unique();
		byte[] zoe = ("{\"value\":\"" + key + "\",\"payee\":\"Zo\u00eb\"}").getBytes(StandardCharsets.UTF_8);
		HttpResponse<byte[]> first = payee(key, "application/json;charset=UTF-8", zoe);
		HttpResponse<byte[]> latin1 = payee(key, "application/json;charset=ISO-8859-1", zoe);
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(Http.text(first)).contains("Zo\u00eb");
		assertThat(latin1.statusCode()).isEqualTo(422);
		assertThat(this.effects.count("payees", key)).isOne();
		HttpResponse<byte[]> latin1UnderANewKey = payee(unique(), "application/json;charset=ISO-8859-1", zoe);
		assertThat(Http.text(latin1UnderANewKey)).contains("Zo\u00c3\u00ab");
	}

	@Test
	void sameJsonWithItsFieldsReorderedAndItsCharsetImpliedIsReplayed() {
		String key = unique();
		byte[] zoe = ("{\"value\":\"" + key + "\",\"payee\":\"Zo\u00eb\"}").getBytes(StandardCharsets.UTF_8);
		byte[] reordered = ("{ \"payee\": \"Zo\u00eb\", \"value\": \"" + key + "\" }")
			.getBytes(StandardCharsets.UTF_8);
		HttpResponse<byte[]> first = payee(key, "application/json;charset=UTF-8", zoe);
		HttpResponse<byte[]> replay = payee(key, "application/json", reordered);
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(replay.statusCode()).isEqualTo(201);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(this.effects.count("payees", key)).isOne();
	}

	@Test
	void aHandlerThatNamesAFingerprintExpressionIsRefusedAndRunsNothing() {
		String key = unique();
		HttpResponse<byte[]> answer = http().post("/fingerprinted").key(key).json(json(key)).send();
		assertThat(answer.statusCode()).isEqualTo(500);
		assertThat(this.effects.count("fingerprinted", key)).isZero();
		assertThat(records(key)).isZero();
	}

	private HttpResponse<byte[]> payee(String key, String contentType, byte[] json) {
		return http().post("/payees").key(key).body(contentType, json).send();
	}

	private HttpResponse<byte[]> route(String key, String query, String json) {
		return http().post("/routes?" + query).key(key).json(json).send();
	}

	private HttpResponse<byte[]> raw(String key, String contentType, String body) {
		return http().post("/raw?detail=" + key)
			.key(key)
			.body(contentType, body.getBytes(StandardCharsets.UTF_8))
			.send();
	}

	private HttpResponse<byte[]> upload(String key, String title, byte[] file) {
		String boundary = "----boundary" + unique().replace("-", "");
		String multipart = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\n" + title
				+ "-" + key + "\r\n--" + boundary
				+ "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"invoice.txt\"\r\n"
				+ "Content-Type: text/plain\r\n\r\n" + new String(file, StandardCharsets.ISO_8859_1) + "\r\n--"
				+ boundary + "--\r\n";
		return http().post("/uploads")
			.key(key)
			.body("multipart/form-data; boundary=" + boundary, multipart.getBytes(StandardCharsets.ISO_8859_1))
			.send();
	}

}
