package io.github.idempotency.sample.agents;

import tools.jackson.databind.JsonNode;

/**
 * The body of {@code POST /agent-tasks}: an A2A task another agent sends, whose id is its
 * idempotency key.
 *
 * @param taskId the task's id, chosen by the sending agent and the same on every retry
 * @param agentId the sending agent
 * @param skill the skill the task asks for, such as {@code quote}
 * @param input the skill's input
 */
public record CreateAgentTaskRequest(String taskId, String agentId, String skill, JsonNode input) {

}
