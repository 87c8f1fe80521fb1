package io.github.idempotency.sample.agents;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stores agent tasks in {@code agent_task} and their attempts in {@code agent_task_attempt}. Every
 * state change is a compare-and-set on the task's attempt count, so two attempts of one task can
 * never both move it.
 */
@Repository
class AgentTaskRepository {

	private static final String COLUMNS = "id, agent_id, skill, input, state, attempts, result, failure_kind, "
			+ "failure_detail, created_at, updated_at";

	private final JdbcClient jdbc;

	private final JsonMapper json;

	AgentTaskRepository(JdbcClient jdbc, JsonMapper json) {
		this.jdbc = jdbc;
		this.json = json;
	}

	Optional<AgentTask> find(String taskId) {
		return this.jdbc.sql("SELECT " + COLUMNS + " FROM agent_task WHERE id = ?")
			.param(taskId)
			.query(this::task)
			.optional();
	}

	/**
	 * Accept a task as {@code PENDING}.
	 * @param request the request
	 * @throws org.springframework.dao.DuplicateKeyException if the task id is taken
	 */
	void insertPending(CreateAgentTaskRequest request) {
		OffsetDateTime now = now();
		this.jdbc
			.sql("INSERT INTO agent_task (id, agent_id, skill, input, state, attempts, created_at, updated_at) "
					+ "VALUES (?, ?, ?, ?, 'PENDING', 0, ?, ?)")
			.params(request.taskId(), request.agentId(), request.skill(), this.json.writeValueAsString(request.input()),
					now, now)
			.update();
	}

	/**
	 * Start the next attempt of a task that is neither completed nor finally failed.
	 * @param taskId the task id
	 * @param attempts how many attempts the caller saw started
	 * @return whether this call started attempt {@code attempts + 1}
	 */
	boolean startAttempt(String taskId, int attempts) {
		return this.jdbc
			.sql("UPDATE agent_task SET state = 'IN_PROGRESS', attempts = attempts + 1, failure_kind = NULL, "
					+ "failure_detail = NULL, updated_at = ? WHERE id = ? AND attempts = ? AND state <> 'COMPLETED' "
					+ "AND (failure_kind IS NULL OR failure_kind <> 'FINAL')")
			.params(now(), taskId, attempts)
			.update() == 1;
	}

	/**
	 * Record that an attempt's work runs: the effect that a duplicate must not repeat.
	 * @param taskId the task id
	 * @param attempt the attempt's number
	 */
	void recordRun(String taskId, int attempt) {
		this.jdbc
			.sql("INSERT INTO agent_task_attempt (task_id, attempt, outcome, started_at) VALUES (?, ?, 'RUNNING', ?)")
			.params(taskId, attempt, now())
			.update();
	}

	/**
	 * Finish an attempt that is still the task's latest.
	 * @param taskId the task id
	 * @param attempt the attempt's number
	 * @param result the result, or {@code null} for a failure
	 * @param failure the failure, or {@code null} for a result
	 * @return whether the attempt was still the latest and finished the task
	 */
	@Transactional
	boolean finish(String taskId, int attempt, JsonNode result, TaskFailure failure) {
		OffsetDateTime now = now();
		String outcome = (failure == null) ? "COMPLETED" : "FAILED_" + failure.kind();
		int tasks = this.jdbc
			.sql("UPDATE agent_task SET state = ?, result = ?, failure_kind = ?, failure_detail = ?, updated_at = ? "
					+ "WHERE id = ? AND attempts = ? AND state = 'IN_PROGRESS'")
			.params((failure == null) ? AgentTaskState.COMPLETED.name() : AgentTaskState.FAILED.name(),
					(result != null) ? this.json.writeValueAsString(result) : null,
					(failure != null) ? failure.kind() : null, (failure != null) ? failure.detail() : null, now,
					taskId, attempt)
			.update();
		this.jdbc.sql("UPDATE agent_task_attempt SET outcome = ?, finished_at = ? WHERE task_id = ? AND attempt = ?")
			.params(outcome, now, taskId, attempt)
			.update();
		return tasks == 1;
	}

	private AgentTask task(ResultSet rs, int row) throws SQLException {
		String result = rs.getString("result");
		String failureKind = rs.getString("failure_kind");
		return new AgentTask(rs.getString("id"), rs.getString("agent_id"), rs.getString("skill"),
				this.json.readTree(rs.getString("input")), AgentTaskState.valueOf(rs.getString("state")),
				rs.getInt("attempts"), (result != null) ? this.json.readTree(result) : null,
				(failureKind != null) ? new TaskFailure(failureKind, rs.getString("failure_detail")) : null,
				rs.getObject("created_at", OffsetDateTime.class).toInstant(),
				rs.getObject("updated_at", OffsetDateTime.class).toInstant());
	}

	private static OffsetDateTime now() {
		return Instant.now().truncatedTo(ChronoUnit.MILLIS).atOffset(ZoneOffset.UTC);
	}

}
