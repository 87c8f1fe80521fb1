package io.github.idempotency.asynctimeout;

import java.net.http.HttpResponse;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.asynctimeout.AsyncTimeoutApplication.Work;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A key is never given up while the asynchronous work under it may still run: a handler whose
 * work outlives {@code spring.mvc.async.request-timeout} keeps its key until the work ends, and
 * its late result is what the retries get.
 */
@SpringBootTest(classes = AsyncTimeoutApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.mvc.async.request-timeout=400ms", "idempotency.operations.deferred.lease=1h",
				"idempotency.operations.flux.lease=1h" })
class AsyncTimeoutTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("asynctimeout");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		registry.add("spring.datasource.url", database::url);
		registry.add("spring.datasource.username", database::username);
		registry.add("spring.datasource.password", database::password);
	}

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	Work work;

	@Autowired
	AsyncTimeoutApplication.Handlers handlers;

	@Test
	void aCompletableFutureThatOutlivesItsRequestKeepsItsKeyAndItsLateResultIsReplayed() {
		lateResultIsStoredOnceAndReplayed("/future");
	}

	@Test
	void aCallableThatOutlivesItsRequestKeepsItsKeyAndItsLateResultIsReplayed() {
		lateResultIsStoredOnceAndReplayed("/callable");
	}

	private void lateResultIsStoredOnceAndReplayed(String path) {
		String value = UUID.randomUUID().toString();
		HttpResponse<byte[]> timedOut = post(path, value);
		assertThat(timedOut.statusCode()).isEqualTo(503);

		HttpResponse<byte[]> whileRunning = post(path, value);
		assertThat(whileRunning.statusCode()).as("a retry while the work runs").isEqualTo(409);
		assertThat(whileRunning.headers().firstValue("Retry-After")).isPresent();
		assertThat(this.work.runs(value)).isOne();

		this.work.finish(value);
		await().until(() -> "COMPLETED".equals(status(value)));
		HttpResponse<byte[]> replay = post(path, value);
		assertThat(replay.statusCode()).isEqualTo(201);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.headers().firstValue("Location")).hasValue("/things/" + value);
		assertThat(replay.headers().firstValue("Content-Type")).hasValue("application/json");
		assertThat(Http.text(replay)).isIn("{\"value\":\"" + value + "\",\"runs\":1}",
				"{\"runs\":1,\"value\":\"" + value + "\"}");
		assertThat(this.work.runs(value)).isOne();
	}

	@Test
	void aMonoIsStoredOnceAndReplayed() {
		String value = UUID.randomUUID().toString();
		this.work.finish(value);
		HttpResponse<byte[]> first = post("/mono", value);
		assertThat(first.statusCode()).isEqualTo(201);
		HttpResponse<byte[]> replay = post("/mono", value);
		assertThat(replay.statusCode()).isEqualTo(201);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(this.work.runs(value)).isOne();
	}

	@Test
	void aMonoThatOutlivesItsRequestKeepsItsKeyAndItsLateResultIsReplayed() {
		lateResultIsStoredOnceAndReplayed("/mono");
	}

	@Test
	void aFluxPastItsTimeoutLeavesItsKeyToItsLease() {
		String value = UUID.randomUUID().toString();
		assertThat(post("/flux", value).statusCode()).isEqualTo(503);
		assertThat(post("/flux", value).statusCode()).isEqualTo(409);
		assertThat(status(value)).isEqualTo("IN_PROGRESS");
		assertThat(this.work.runs(value)).isOne();
		this.work.finish(value);
	}

	@Test
	void aLateTransientFailureReleasesTheKeyOnlyOnceTheWorkHasEnded() {
		String value = UUID.randomUUID().toString();
		assertThat(post("/future-failing", value).statusCode()).isEqualTo(503);
		assertThat(post("/future-failing", value).statusCode()).isEqualTo(409);

		this.work.finish(value);
		await().until(() -> "RELEASED".equals(status(value)));
		assertThat(this.work.runs(value)).isOne();
	}

	@Test
	void aLateFinalFailureIsStoredAndReplayed() {
		String value = UUID.randomUUID().toString();
		assertThat(post("/future-declined", value).statusCode()).isEqualTo(503);

		this.work.finish(value);
		await().until(() -> "COMPLETED".equals(status(value)));
		HttpResponse<byte[]> replay = post("/future-declined", value);
		assertThat(replay.statusCode()).isEqualTo(422);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.work.runs(value)).isOne();
	}

	@Test
	void aTaskThatHadNotStartedWhenItsRequestTimedOutNeverRunsAndItsKeyIsReleased()
			throws InterruptedException, ExecutionException, TimeoutException {
		String blocker = UUID.randomUUID().toString();
		this.handlers.occupyTheQueuedThread(blocker);
		String value = UUID.randomUUID().toString();
		assertThat(post("/queued", value).statusCode()).isEqualTo(503);
		assertThat(status(value)).isEqualTo("RELEASED");

		this.work.finish(blocker);
		this.handlers.drainTheQueuedThread().get(30, TimeUnit.SECONDS);
		assertThat(this.work.runs(value)).isZero();
	}

	@Test
	void aDeferredResultPastItsTimeoutLeavesItsKeyToItsLease() {
		String value = UUID.randomUUID().toString();
		assertThat(post("/deferred", value).statusCode()).isEqualTo(503);
		assertThat(post("/deferred", value).statusCode()).isEqualTo(409);
		assertThat(status(value)).isEqualTo("IN_PROGRESS");
		assertThat(this.work.runs(value)).isOne();
		this.work.finish(value);
	}

	private HttpResponse<byte[]> post(String path, String value) {
		return new Http(this.port).post(path).key(value).json("{\"value\":\"" + value + "\"}").send();
	}

	private String status(String key) {
		return this.jdbc
			.queryForList("SELECT status FROM idempotency_record WHERE idempotency_key = ?", String.class, key)
			.stream()
			.findFirst()
			.orElse(null);
	}

}
