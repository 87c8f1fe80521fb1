package io.github.idempotency.springways;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
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
 * Leases of LEASED requests stay alive while they run, each on its own: one request whose lease
 * cannot be renewed (its row is locked by someone else) neither starves the others nor goes
 * unnoticed. Retries go to a second instance, as a load balancer would send them.
 */
class LeaseHeartbeatTests extends SpringWaysTest {

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
	void oneStalledRenewalStarvesNoOtherLease() throws Exception {
		String stalled = unique();
		String live = unique();
		this.gate.close();
		CompletableFuture<HttpResponse<byte[]>> stalledRequest = http().post("/slow").key(stalled)
			.json(json(stalled))
			.sendAsync();
		CompletableFuture<HttpResponse<byte[]>> liveRequest = http().post("/slow").key(live).json(json(live))
			.sendAsync();
		await().atMost(Duration.ofSeconds(20)).until(() -> this.gate.entered() == 2);
		try (Connection locker = database.connect()) {
			locker.setAutoCommit(false);
			try (PreparedStatement lock = locker.prepareStatement(
					"SELECT 1 FROM idempotency_record WHERE idempotency_key = ? FOR UPDATE")) {
				lock.setString(1, stalled);
				lock.executeQuery().close();
			}
			// Three leases long, the live request's lease keeps being renewed while the other's
			// renewal is stuck on the row lock.
			await().atMost(Duration.ofSeconds(20))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> runningFor(live).compareTo(Duration.ofMillis(4500)) > 0);
			assertThat(leaseLeft(live)).isPositive();
			HttpResponse<byte[]> retry = new Http(second.port()).post("/slow").key(live).json(json(live)).send();
			assertThat(retry.statusCode()).isEqualTo(409);
			// Both go on: the live one still holds its lease; the stalled one knows it may not.
			this.gate.open();
			assertThat(liveRequest.get().statusCode()).isEqualTo(200);
			locker.rollback();
		}
		HttpResponse<byte[]> stalledAnswer = stalledRequest.get();
		assertThat(stalledAnswer.statusCode()).isEqualTo(409);
		assertThat(Http.text(stalledAnswer)).contains("urn:problem-type:idempotency:lease-lost");
		assertThat(this.effects.count("slow", live)).isOne();
		assertThat(this.effects.count("slow", stalled)).isZero();
		assertThat(records(stalled)).isZero();
	}

	private Duration runningFor(String key) {
		return Duration.ofMillis(this.jdbc.queryForObject("SELECT CAST(EXTRACT(EPOCH FROM (clock_timestamp() - "
				+ "created_at)) * 1000 AS BIGINT) FROM idempotency_record WHERE idempotency_key = ?", Long.class, key));
	}

	private long leaseLeft(String key) {
		return this.jdbc.queryForObject("SELECT CAST(EXTRACT(EPOCH FROM (locked_until - clock_timestamp())) * 1000 "
				+ "AS BIGINT) FROM idempotency_record WHERE idempotency_key = ?", Long.class, key);
	}

}
