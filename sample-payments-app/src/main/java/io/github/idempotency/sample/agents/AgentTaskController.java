package io.github.idempotency.sample.agents;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.github.idempotency.annotation.Idempotent;

/**
 * The A2A tasks API: {@code POST /agent-tasks} runs a task keyed by its task id, so a retry of a
 * completed task gets its result, of a finally failed one its failure, and of a transiently failed
 * one a new attempt.
 */
@RestController
@RequestMapping("/agent-tasks")
public class AgentTaskController {

	/**
	 * Name of the idempotent operation that runs agent tasks.
	 */
	public static final String RUN_OPERATION = "run-agent-task";

	private final AgentTaskService tasks;

	AgentTaskController(AgentTaskService tasks) {
		this.tasks = tasks;
	}

	@Idempotent(operation = RUN_OPERATION, key = "@agentTaskKeys.keyFor(#request)")
	@PostMapping
	public AgentTask run(@RequestBody CreateAgentTaskRequest request) {
		return this.tasks.run(request);
	}

	@GetMapping("/{taskId}")
	public AgentTask get(@PathVariable String taskId) {
		return this.tasks.find(taskId);
	}

}
