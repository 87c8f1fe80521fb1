package io.github.idempotency.sample.observability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Grafana dashboard shipped in {@code observability/grafana-dashboard.json}: importable into
 * any Grafana with a Prometheus data source chosen by a variable, its queries valid PromQL (as
 * {@code promtool} parses them), and plotting every signal an alert rule watches.
 */
class GrafanaDashboardTests {

	@Test
	void everyQueryReadsThePrometheusDataSourceChosenByTheDashboardsVariable() throws IOException {
		JsonNode dashboard = Dashboards.dashboard();
		assertThat(dashboard.path("uid").asString()).isEqualTo("idempotency");
		JsonNode datasource = dashboard.path("templating").path("list").get(0);
		assertThat(datasource.path("name").asString()).isEqualTo("datasource");
		assertThat(datasource.path("type").asString()).isEqualTo("datasource");
		assertThat(datasource.path("query").asString()).isEqualTo("prometheus");
		List<JsonNode> panels = Dashboards.panels(dashboard);
		assertThat(panels).hasSizeGreaterThan(10);
		for (JsonNode panel : panels) {
			if ("row".equals(panel.path("type").asString())) {
				continue;
			}
			assertThat(panel.path("datasource").path("uid").asString()).as(panel.path("title").asString())
				.isEqualTo("${datasource}");
			assertThat(panel.path("targets")).as(panel.path("title").asString()).isNotEmpty();
			for (JsonNode target : panel.path("targets")) {
				assertThat(target.path("datasource").path("uid").asString()).isEqualTo("${datasource}");
			}
		}
	}

	@Test
	void everyQueryIsValidPromQl(@TempDir Path folder) throws IOException {
		List<Map<String, Object>> rules = new ArrayList<>();
		List<String> expressions = new ArrayList<>(Dashboards.expressions(Dashboards.dashboard()));
		for (int i = 0; i < expressions.size(); i++) {
			Map<String, Object> rule = new LinkedHashMap<>();
			rule.put("record", "dashboard:query_" + i);
			rule.put("expr", withGrafanaVariables(expressions.get(i)));
			rules.add(rule);
		}
		Path file = folder.resolve("dashboard-queries.yml");
		DumperOptions options = new DumperOptions();
		options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
		Files.writeString(file, new Yaml(options)
			.dump(Map.of("groups", List.of(Map.of("name", "dashboard", "rules", rules)))));
		String promtool = Repository.ensure("ensure-promtool.sh").get(0);
		Repository.Result result = Repository.run(List.of(promtool, "check", "rules", file.toString()), 5);
		assertThat(result.exitCode()).as(result.output()).isZero();
		assertThat(result.output()).contains("SUCCESS: " + expressions.size() + " rules found");
	}

	@Test
	void everyMetricThatAnAlertRuleWatchesIsPlotted() throws IOException {
		List<String> plotted = new ArrayList<>();
		Dashboards.expressions(Dashboards.dashboard()).forEach((query) -> plotted.addAll(PromQl.metricNames(query)));
		for (Map<String, Object> rule : AlertRulesTests.rules()) {
			assertThat(plotted).as((String) rule.get("alert")).containsAll(PromQl.metricNames((String) rule.get("expr")));
		}
	}

	/**
	 * Replace the variables Grafana fills in with values Prometheus accepts.
	 */
	private static String withGrafanaVariables(String query) {
		return query.replace("$__rate_interval", "5m").replace("$job", ".*").replace("$operation", ".*");
	}

}
