package io.github.idempotency.springways;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.github.idempotency.springways.SpringWaysApplication.Gate;
import io.github.idempotency.testsupport.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * When an ATOMIC request fails finally while a duplicate on another instance waits for its row,
 * the duplicate runs the operation; the first client is never told of a failure that its retry
 * would contradict.
 */
class DuplicateHandoverTests extends SpringWaysTest {

	static SecondInstance second;

	@Autowired
	Gate gate;

	@BeforeAll
	static void startSecondInstance() {
		second = SecondInstance.start(database);
	}

	@AfterAll
	static void stopSecondInstance() {
		second.close();
	}

	@AfterEach
	void openGate() {
		this.gate.open();
	}

	@Test
	void finalFailureWhoseKeyADuplicateTookIsNotReportedAsTheOutcome() throws Exception {
		String value = unique();
		this.gate.close();
		this.gate.failNextFinally(1);
		CompletableFuture<HttpResponse<byte[]>> first = http().post("/atomic-gated").key(value).json(json(value))
			.sendAsync();
		await().atMost(Duration.ofSeconds(20)).until(() -> this.gate.entered() == 1);
		CompletableFuture<HttpResponse<byte[]>> duplicate = new Http(second.port()).post("/atomic-gated")
			.key(value)
			.json(json(value))
			.sendAsync();
		await().atMost(Duration.ofSeconds(20)).until(() -> backendsWaitingOnLocks() >= 1);
		this.gate.open();
		HttpResponse<byte[]> firstAnswer = first.get();
		HttpResponse<byte[]> duplicateAnswer = duplicate.get();
		HttpResponse<byte[]> stored = http().post("/atomic-gated").key(value).json(json(value)).send();
		assertThat(stored.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.effects.count("atomic-gated", value)).isEqualTo((stored.statusCode() == 201) ? 1 : 0);
		assertConsistent(firstAnswer, stored);
		assertConsistent(duplicateAnswer, stored);
	}

	/**
	 * An answer is the stored outcome, or a 409 that sends the client back for it; never an
	 * outcome that the stored one contradicts.
	 */
	private static void assertConsistent(HttpResponse<byte[]> answer, HttpResponse<byte[]> stored) {
		if (answer.statusCode() != 409) {
			assertThat(answer.statusCode()).isEqualTo(stored.statusCode());
			assertThat(answer.body()).isEqualTo(stored.body());
		}
	}

	private long backendsWaitingOnLocks() {
		return this.jdbc.queryForObject("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
				+ "AND wait_event_type = 'Lock'", Long.class);
	}

}
