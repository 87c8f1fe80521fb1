package io.github.idempotency.sample.agents;

import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The work of agent tasks: the one skill {@code quote} prices a quantity of a product. How an
 * attempt ends follows from the task's input alone, so that both kinds of failure can be shown:
 * an unknown skill, an invalid input or a sku starting with {@code discontinued-} fail finally;
 * {@code "transientFailures": n} makes the first {@code n} attempts fail transiently, as an
 * unavailable pricing service would; {@code "thinkMillis": n} makes each attempt take that long
 * (two minutes at most), as a long task does.
 */
@Component
class AgentTaskWork {

	static final String QUOTE = "quote";

	private static final long MAX_THINK_MILLIS = 120_000;

	private final JsonMapper json;

	AgentTaskWork(JsonMapper json) {
		this.json = json;
	}

	/**
	 * Run one attempt of a task.
	 * @param skill the skill asked for
	 * @param input the skill's input
	 * @param attempt the attempt's number, from 1
	 * @return how the attempt ended
	 */
	Outcome run(String skill, JsonNode input, int attempt) {
		if (!QUOTE.equals(skill)) {
			return new Outcome.FinalFailure("This agent has no skill '" + skill + "'; it offers: " + QUOTE + ".");
		}
		String sku = input.path("sku").stringValue(null);
		JsonNode quantity = input.path("quantity");
		JsonNode unitPrice = input.path("unitPrice");
		if (sku == null || sku.isBlank() || !isLong(quantity) || quantity.longValue() <= 0 || !isLong(unitPrice)
				|| unitPrice.longValue() < 0) {
			return new Outcome.FinalFailure(
					"A quote needs a sku, a positive integer quantity and an integer unitPrice that is not negative.");
		}
		if (sku.startsWith("discontinued-")) {
			return new Outcome.FinalFailure("Product " + sku + " is discontinued and cannot be quoted.");
		}
		JsonNode think = input.path("thinkMillis");
		if (isLong(think) && think.longValue() > 0) {
			think(Math.min(think.longValue(), MAX_THINK_MILLIS));
		}
		JsonNode transientFailures = input.path("transientFailures");
		if (isLong(transientFailures) && attempt <= transientFailures.longValue()) {
			return new Outcome.TransientFailure("The pricing service did not answer attempt " + attempt + ".");
		}
		long total;
		try {
			total = Math.multiplyExact(quantity.longValue(), unitPrice.longValue());
		}
		catch (ArithmeticException ex) {
			return new Outcome.FinalFailure("The total of the quote is too large.");
		}
		ObjectNode result = this.json.createObjectNode();
		result.put("sku", sku);
		result.put("quantity", quantity.longValue());
		result.put("unitPrice", unitPrice.longValue());
		result.put("total", total);
		return new Outcome.Completed(result);
	}

	/**
	 * Take as long as an agent that thinks: a long task, which the starter answers 202 Accepted once
	 * it outlasts run-agent-task's accept-after.
	 */
	private static void think(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("The task was interrupted while it ran", ex);
		}
	}

	private static boolean isLong(JsonNode node) {
		return node.isIntegralNumber() && node.canConvertToLong();
	}

	/**
	 * How an attempt ended.
	 */
	sealed interface Outcome {

		/**
		 * The task is done.
		 *
		 * @param result its result
		 */
		record Completed(JsonNode result) implements Outcome {

		}

		/**
		 * The task can never succeed.
		 *
		 * @param detail why
		 */
		record FinalFailure(String detail) implements Outcome {

		}

		/**
		 * This attempt failed, a later one may succeed.
		 *
		 * @param detail why
		 */
		record TransientFailure(String detail) implements Outcome {

		}

	}

}
