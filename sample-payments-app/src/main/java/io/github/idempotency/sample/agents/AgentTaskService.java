package io.github.idempotency.sample.agents;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import tools.jackson.databind.JsonNode;

/**
 * Runs agent tasks: accepts a task as {@code PENDING}, runs an attempt as {@code IN_PROGRESS} and
 * ends it {@code COMPLETED} or {@code FAILED}. A task that is done answers every later request
 * from its row: its result, or its final failure. Each step commits on its own, so the state is
 * visible while the work runs.
 */
@Service
public class AgentTaskService {

	private final AgentTaskRepository tasks;

	private final AgentTaskWork work;

	AgentTaskService(AgentTaskRepository tasks, AgentTaskWork work) {
		this.tasks = tasks;
		this.work = work;
	}

	/**
	 * Run a task, or answer with its outcome if it has one.
	 * @param request the request, checked by {@link AgentTaskKeys}
	 * @return the completed task
	 * @throws AgentTaskFailedException if the task failed finally, now or before
	 * @throws AgentTaskInterruptedException if this attempt failed transiently
	 * @throws AgentTaskConflictException if the task id names a different task
	 * @throws AgentTaskBusyException if another attempt of the task started first
	 */
	public AgentTask run(CreateAgentTaskRequest request) {
		AgentTask task = accept(request);
		if (task.state() == AgentTaskState.COMPLETED) {
			return task;
		}
		if (task.state() == AgentTaskState.FAILED && task.failure().isFinal()) {
			throw new AgentTaskFailedException(task);
		}
		int attempt = task.attempts() + 1;
		if (!this.tasks.startAttempt(task.taskId(), task.attempts())) {
			throw new AgentTaskBusyException(task.taskId());
		}
		this.tasks.recordRun(task.taskId(), attempt);
		AgentTaskWork.Outcome outcome = this.work.run(task.skill(), task.input(), attempt);
		if (outcome instanceof AgentTaskWork.Outcome.Completed completed) {
			return finish(task.taskId(), attempt, completed.result(), null);
		}
		if (outcome instanceof AgentTaskWork.Outcome.FinalFailure failure) {
			throw new AgentTaskFailedException(
					finish(task.taskId(), attempt, null, new TaskFailure(TaskFailure.FINAL, failure.detail())));
		}
		AgentTaskWork.Outcome.TransientFailure failure = (AgentTaskWork.Outcome.TransientFailure) outcome;
		throw new AgentTaskInterruptedException(
				finish(task.taskId(), attempt, null, new TaskFailure(TaskFailure.TRANSIENT, failure.detail())));
	}

	/**
	 * Return a task.
	 * @param taskId the task id
	 * @return the task
	 * @throws AgentTaskNotFoundException if there is no such task
	 */
	public AgentTask find(String taskId) {
		return this.tasks.find(taskId).orElseThrow(() -> new AgentTaskNotFoundException(taskId));
	}

	private AgentTask accept(CreateAgentTaskRequest request) {
		AgentTask task = this.tasks.find(request.taskId()).orElse(null);
		if (task == null) {
			try {
				this.tasks.insertPending(request);
			}
			catch (DuplicateKeyException ex) {
				// accepted by another request in the meantime: answer as that task
			}
			task = find(request.taskId());
		}
		if (!task.isRequestedBy(request)) {
			throw new AgentTaskConflictException(request.taskId());
		}
		return task;
	}

	/**
	 * End an attempt and return the task as it leaves it, read back so that a later request
	 * answered from the row gets the same body.
	 */
	private AgentTask finish(String taskId, int attempt, JsonNode result, TaskFailure failure) {
		if (!this.tasks.finish(taskId, attempt, result, failure)) {
			throw new AgentTaskBusyException(taskId);
		}
		return find(taskId);
	}

}
