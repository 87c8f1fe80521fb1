package io.github.idempotency.sample.agents;

import java.util.regex.Pattern;

import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Takes the idempotency key of an agent task: its task id, as the A2A protocol makes it, so every
 * retry of a task is answered by the task.
 */
@Component("agentTaskKeys")
public class AgentTaskKeys {

	private static final Pattern TASK_ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

	private static final int MAX_INPUT_LENGTH = 8000;

	private final JsonMapper json;

	AgentTaskKeys(JsonMapper json) {
		this.json = json;
	}

	/**
	 * Return the key of a task; called from the key expression of {@code POST /agent-tasks}, so
	 * before anything is claimed.
	 * @param request the request
	 * @return the task id
	 * @throws InvalidAgentTaskException if the task id is missing or malformed, the input is not a
	 * JSON object of at most 8000 characters, or the agent id or skill is too long
	 */
	public String keyFor(CreateAgentTaskRequest request) {
		if (request.taskId() == null || !TASK_ID.matcher(request.taskId()).matches()) {
			throw new InvalidAgentTaskException(
					"taskId is required: 1 to 128 letters, digits, '.', '_', ':' or '-'.");
		}
		if (request.input() == null || !request.input().isObject()
				|| this.json.writeValueAsString(request.input()).length() > MAX_INPUT_LENGTH) {
			throw new InvalidAgentTaskException(
					"input is required: a JSON object of at most " + MAX_INPUT_LENGTH + " characters.");
		}
		if ((request.agentId() != null && request.agentId().length() > 128)
				|| (request.skill() != null && request.skill().length() > 64)) {
			throw new InvalidAgentTaskException("agentId must be at most 128 characters long, skill at most 64.");
		}
		return request.taskId();
	}

}
