package io.github.idempotency.sample.reliability;

import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code kill -9} of the packaged application while the work of an accepted agent task runs, then
 * a restart: the task's status says it was interrupted once its lease runs out, a retry of the
 * request takes it over with a new token, answers 202 again, and the task completes once.
 */
class AcceptedAgentTaskCrashIT {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static final String TASK = "{\"taskId\":\"task-crash\",\"agentId\":\"shopping-agent\",\"skill\":\"quote\",\"input\":"
			+ "{\"sku\":\"A-1\",\"quantity\":3,\"unitPrice\":250,\"thinkMillis\":3000}}";

	@Test
	void aRetryAfterTheInstanceDiedMidTaskTakesItOverAndTheTaskCompletesOnce() {
		PostgresTestDatabase database = PostgresTestDatabase.create("crash_accepted");
		JdbcTemplate jdbc = new JdbcTemplate(
				new DriverManagerDataSource(database.url(), database.username(), database.password()));
		String[] arguments = { "--idempotency.operations.run-agent-task.accept-after=0s",
				"--idempotency.operations.run-agent-task.lease=2s" };
		String link;
		try (SampleProcess first = SampleProcess.start(database, "accepted-first", arguments)) {
			HttpResponse<byte[]> accepted = first.http().post("/agent-tasks").json(TASK).send();
			assertThat(accepted.statusCode()).as(Http.text(accepted)).isEqualTo(202);
			link = accepted.headers().firstValue("Location").orElseThrow();
			await().atMost(TIMEOUT).until(() -> runs(jdbc) == 1);
			first.kill();
		}
		try (SampleProcess restarted = SampleProcess.start(database, "accepted-restarted", arguments)) {
			Http http = restarted.http();
			await().atMost(TIMEOUT).until(() -> Http.text(http.get(link).send()).contains("\"status\":\"interrupted\""));
			HttpResponse<byte[]> retry = http.post("/agent-tasks").json(TASK).send();
			assertThat(retry.statusCode()).as(Http.text(retry)).isEqualTo(202);
			assertThat(retry.headers().firstValue("Location")).hasValue(link);
			HttpResponse<byte[]> done = await().atMost(TIMEOUT)
				.pollInterval(Duration.ofMillis(200))
				.until(() -> http.get(link).send(),
						(response) -> response.headers().firstValue("Idempotent-Replayed").isPresent());
			assertThat(done.statusCode()).isEqualTo(200);
			assertThat(Http.text(done)).contains("\"state\":\"COMPLETED\"").contains("\"total\":750");
			HttpResponse<byte[]> replay = http.post("/agent-tasks").json(TASK).send();
			assertThat(replay.body()).isEqualTo(done.body());
		}
		assertThat(runs(jdbc)).isEqualTo(2);
		assertThat(jdbc.queryForObject("SELECT count(*) FROM agent_task WHERE id = 'task-crash' AND state = 'COMPLETED'",
				Long.class)).isOne();
		assertThat(jdbc.queryForObject("SELECT attempts FROM idempotency_record WHERE operation = 'run-agent-task'",
				Integer.class)).isEqualTo(2);
	}

	private static long runs(JdbcTemplate jdbc) {
		return jdbc.queryForObject("SELECT count(*) FROM agent_task_attempt WHERE task_id = 'task-crash'", Long.class);
	}

}
