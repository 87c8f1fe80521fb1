package io.github.idempotency.springways;

import java.io.UncheckedIOException;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;

import io.github.idempotency.springways.SpringWaysApplication.Failures;
import io.github.idempotency.testsupport.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the client receives is what is stored, whatever sits between the handler and the socket:
 * a response-buffering filter inside the starter's, and asynchronous handlers.
 */
class ResponseCaptureTests extends SpringWaysTest {

	@Autowired
	Failures failures;

	@ParameterizedTest
	@CsvSource({ "/logged, logged", "/logged-atomic, logged-atomic" })
	void replayBehindABufferingFilterIsTheFirstAnswerByteForByte(String path, String endpoint) {
		String value = unique();
		HttpResponse<byte[]> first = http().post(path).key(value).json(json(value)).send();
		HttpResponse<byte[]> replay = http().post(path).key(value).json(json(value)).send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(Http.text(first)).contains(value);
		assertThat(replay.statusCode()).isEqualTo(201);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(replay.headers().firstValue("Content-Type")).isEqualTo(first.headers().firstValue("Content-Type"));
		assertThat(this.effects.count(endpoint, value)).isOne();
	}

	@ParameterizedTest
	@CsvSource({ "/async/callable, callable", "/async/future, future", "/async/deferred, deferred",
			"/async/task, web-async-task" })
	void asynchronousHandlerIsStoredAtCompletionAndReplayed(String path, String endpoint) {
		String value = unique();
		HttpResponse<byte[]> first = http().post(path).key(value).json(json(value)).send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(Http.text(first)).contains(value);
		HttpResponse<byte[]> replay = http().post(path).key(value).json(json(value)).send();
		assertThat(replay.statusCode()).isEqualTo(201);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(this.effects.count(endpoint, value)).isOne();
		assertThat(status(value)).isEqualTo("COMPLETED");
	}

	@Test
	void asynchronousHandlerThatFailsReleasesItsKey() {
		String value = unique();
		HttpResponse<byte[]> first = http().post("/async/failing").key(value).json(json(value)).send();
		assertThat(first.statusCode()).isEqualTo(500);
		assertThat(records(value)).isZero();
		HttpResponse<byte[]> retry = http().post("/async/failing").key(value).json(json(value)).send();
		assertThat(retry.statusCode()).isEqualTo(500);
		assertThat(this.effects.count("future-failing", value)).isEqualTo(2);
	}

	@Test
	void failureAfterTheResponseWasCommittedReachesTheContainerAsItself() {
		try {
			assertThat(http().get("/streamed-then-failed").send().statusCode()).isEqualTo(200);
		}
		catch (UncheckedIOException ex) {
			// The server aborts a response that failed after it was committed.
		}
		await().untilAsserted(() -> assertThat(this.failures.failure("/streamed-then-failed")).isNotNull());
		assertThat(this.failures.failure("/streamed-then-failed")).rootCause()
			.hasMessageContaining("original-cause-7f3a");
	}

}
