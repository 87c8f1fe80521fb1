package io.github.idempotency.sample.observability;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Grafana dashboard shipped in {@code observability/grafana-dashboard.json}, and its queries.
 */
final class Dashboards {

	private Dashboards() {
	}

	static JsonNode dashboard() throws IOException {
		return JsonMapper.shared().readTree(Repository.observability("grafana-dashboard.json").toFile());
	}

	/**
	 * Return the panels, those inside collapsed rows included.
	 * @param dashboard the dashboard
	 * @return the panels
	 */
	static List<JsonNode> panels(JsonNode dashboard) {
		List<JsonNode> panels = new ArrayList<>();
		for (JsonNode panel : dashboard.path("panels")) {
			panels.add(panel);
			panel.path("panels").forEach(panels::add);
		}
		return panels;
	}

	/**
	 * Return the PromQL expression of every panel's query.
	 * @param dashboard the dashboard
	 * @return the expressions
	 */
	static List<String> expressions(JsonNode dashboard) {
		List<String> expressions = new ArrayList<>();
		for (JsonNode panel : panels(dashboard)) {
			for (JsonNode target : panel.path("targets")) {
				expressions.add(target.path("expr").asString());
			}
		}
		return expressions;
	}

	/**
	 * Return the queries of the template variables that ask Prometheus, such as
	 * {@code label_values(idempotency_requests_total, job)}.
	 * @param dashboard the dashboard
	 * @return the queries
	 */
	static List<String> variableQueries(JsonNode dashboard) {
		List<String> queries = new ArrayList<>();
		for (JsonNode variable : dashboard.path("templating").path("list")) {
			if ("query".equals(variable.path("type").asString())) {
				JsonNode query = variable.path("query");
				queries.add(query.isObject() ? query.path("query").asString() : query.asString());
			}
		}
		return queries;
	}

}
