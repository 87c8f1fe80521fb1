package io.github.idempotency.sample.agents;

import java.time.Instant;
import java.util.Objects;

import tools.jackson.databind.JsonNode;

/**
 * An agent task and where it is.
 *
 * @param taskId the task id
 * @param agentId the sending agent
 * @param skill the skill asked for
 * @param input the skill's input
 * @param state where the task is
 * @param attempts how many attempts have started
 * @param result the result once {@code COMPLETED}, else {@code null}
 * @param failure why the last attempt failed when {@code FAILED}, else {@code null}
 * @param createdAt when the task was accepted
 * @param updatedAt when the task last changed state
 */
public record AgentTask(String taskId, String agentId, String skill, JsonNode input, AgentTaskState state,
		int attempts, JsonNode result, TaskFailure failure, Instant createdAt, Instant updatedAt) {

	/**
	 * Return whether a request asks for this task: the same agent, skill and input.
	 * @param request the request
	 * @return whether it is this task sent again
	 */
	boolean isRequestedBy(CreateAgentTaskRequest request) {
		return Objects.equals(this.agentId, request.agentId())
				&& Objects.equals(this.skill, request.skill()) && this.input.equals(request.input());
	}

}
