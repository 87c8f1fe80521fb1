package io.github.idempotency.springways;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * A duplicate of an ATOMIC request whose database gives up waiting for the first request's row lock
 * (a {@code lock_timeout}, MariaDB's {@code innodb_lock_wait_timeout}, H2's lock timeout) is told
 * that the key is in progress, never that the store is unavailable; duplicates in the first
 * request's own instance wait in memory, not on the database.
 */
class AtomicLockTimeoutTests extends SpringWaysTest {

	static SecondInstance impatient;

	@Autowired
	Gate gate;

	@BeforeAll
	static void startAnInstanceThatWaitsBrieflyForLocks() {
		impatient = SecondInstance.start(database,
				"spring.datasource.hikari.connection-init-sql=SET lock_timeout = '300ms'");
	}

	@AfterAll
	static void stopIt() {
		impatient.close();
	}

	@AfterEach
	void openGate() {
		this.gate.open();
	}

	@Test
	void aDuplicateWhoseDatabaseGaveUpOnTheRowLockIsToldTheKeyIsInProgress() throws Exception {
		String value = unique();
		this.gate.close();
		CompletableFuture<HttpResponse<byte[]>> first = http().post("/atomic-gated").key(value).json(json(value))
			.sendAsync();
		await().atMost(Duration.ofSeconds(20)).until(() -> this.gate.entered() == 1);
		HttpResponse<byte[]> duplicate = new Http(impatient.port()).post("/atomic-gated")
			.key(value)
			.json(json(value))
			.send();
		this.gate.open();
		assertThat(duplicate.statusCode()).as(Http.text(duplicate)).isEqualTo(409);
		assertThat(Http.text(duplicate)).contains("urn:problem-type:idempotency:in-progress");
		assertThat(duplicate.headers().firstValue("Retry-After")).isPresent();
		assertThat(first.get().statusCode()).isEqualTo(201);
		assertThat(this.effects.count("atomic-gated", value)).isOne();
	}

	@Test
	void simultaneousDuplicatesInOneInstanceWaitInMemoryNotOnTheDatabase() throws Exception {
		String value = unique();
		this.gate.close();
		List<CompletableFuture<HttpResponse<byte[]>>> requests = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			requests.add(http().post("/atomic-gated").key(value).json(json(value)).sendAsync());
		}
		await().atMost(Duration.ofSeconds(20)).until(() -> this.gate.entered() == 1);
		await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(10))
			.until(() -> backendsWaitingOnLocks() == 0);
		this.gate.open();
		List<HttpResponse<byte[]>> answers = new ArrayList<>();
		for (CompletableFuture<HttpResponse<byte[]>> request : requests) {
			answers.add(request.get());
		}
		assertThat(answers).allSatisfy((answer) -> assertThat(answer.statusCode()).isEqualTo(201));
		assertThat(answers).filteredOn((answer) -> answer.headers().firstValue("Idempotent-Replayed").isEmpty())
			.hasSize(1);
		assertThat(this.effects.count("atomic-gated", value)).isOne();
	}

	private long backendsWaitingOnLocks() {
		return this.jdbc.queryForObject("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
				+ "AND wait_event_type = 'Lock'", Long.class);
	}

}
