package io.github.idempotency.sample.agents;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import io.github.idempotency.sample.problems.Problems;

/**
 * Renders agent task failures as RFC 9457 problems: a final failure as a {@code 422} that is
 * stored, a transient one as a {@code 503} that is not.
 */
@RestControllerAdvice
class AgentTaskProblems {

	private static final String RETRY_AFTER_SECONDS = "1";

	@ExceptionHandler
	ProblemDetail invalid(InvalidAgentTaskException ex) {
		return Problems.of(HttpStatus.BAD_REQUEST, "invalid-agent-task", "Invalid agent task", ex.getMessage());
	}

	@ExceptionHandler
	ProblemDetail failed(AgentTaskFailedException ex) {
		return withTask(Problems.of(HttpStatus.UNPROCESSABLE_CONTENT, "agent-task-failed", "Agent task failed",
				ex.getMessage()), ex.getTask());
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> interrupted(AgentTaskInterruptedException ex) {
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
			.header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS)
			.body(withTask(Problems.of(HttpStatus.SERVICE_UNAVAILABLE, "agent-task-interrupted",
					"Agent task attempt failed; retry it", ex.getMessage()), ex.getTask()));
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> busy(AgentTaskBusyException ex) {
		return ResponseEntity.status(HttpStatus.CONFLICT)
			.header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS)
			.body(Problems.of(HttpStatus.CONFLICT, "agent-task-busy", "Agent task busy", ex.getMessage()));
	}

	@ExceptionHandler
	ProblemDetail conflict(AgentTaskConflictException ex) {
		return Problems.of(HttpStatus.UNPROCESSABLE_CONTENT, "agent-task-conflict", "Task id names another task",
				ex.getMessage());
	}

	@ExceptionHandler
	ProblemDetail notFound(AgentTaskNotFoundException ex) {
		return Problems.of(HttpStatus.NOT_FOUND, "agent-task-not-found", "Agent task not found", ex.getMessage());
	}

	private static ProblemDetail withTask(ProblemDetail problem, AgentTask task) {
		problem.setProperty("taskId", task.taskId());
		problem.setProperty("state", task.state().name());
		problem.setProperty("attempts", task.attempts());
		problem.setProperty("retryable", !task.failure().isFinal());
		return problem;
	}

}
