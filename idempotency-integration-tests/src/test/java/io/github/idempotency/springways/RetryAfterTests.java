package io.github.idempotency.springways;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.github.idempotency.springways.SpringWaysApplication.Gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code Retry-After} on a 409 estimates when the request in progress will be done, from how long
 * the operation takes, instead of naming the rest of its 30 s lease.
 */
class RetryAfterTests extends SpringWaysTest {

	@Autowired
	Gate gate;

	@AfterEach
	void openGate() {
		this.gate.open();
	}

	@Test
	void conflictAsksForARetryAfterAboutTheOperationsDuration() throws Exception {
		for (int i = 0; i < 3; i++) {
			String value = unique();
			assertThat(http().post("/gated").key(value).json(json(value)).send().statusCode()).isEqualTo(200);
		}
		String value = unique();
		this.gate.close();
		CompletableFuture<HttpResponse<byte[]>> first = http().post("/gated").key(value).json(json(value))
			.sendAsync();
		await().atMost(Duration.ofSeconds(20)).until(() -> this.gate.entered() == 1);
		HttpResponse<byte[]> conflict = http().post("/gated").key(value).json(json(value)).send();
		assertThat(conflict.statusCode()).isEqualTo(409);
		assertThat(conflict.headers().firstValue("Retry-After")).hasValueSatisfying(
				(seconds) -> assertThat(Long.parseLong(seconds)).isBetween(1L, 2L));
		this.gate.open();
		assertThat(first.get().statusCode()).isEqualTo(200);
	}

}
