package io.github.idempotency.sample.observability;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Prometheus alert rules shipped in {@code observability/prometheus-rules.yml}, unit tested by
 * Prometheus' own {@code promtool test rules} on the synthetic series of
 * {@code observability/tests}: every rule fires on its series and stays quiet on a healthy one.
 */
class AlertRulesTests {

	@Test
	void everyAlertRuleFiresOnItsSyntheticSeriesAndStaysQuietOnAHealthyOne() throws IOException {
		String promtool = Repository.ensure("ensure-promtool.sh").get(0);
		List<String> command = new ArrayList<>(List.of(promtool, "test", "rules"));
		testFiles().forEach((file) -> command.add(Repository.root().relativize(file).toString()));
		Repository.Result result = Repository.run(command, 5);
		assertThat(result.output()).as("promtool test rules").doesNotContain("FAILED");
		assertThat(result.exitCode()).as(result.output()).isZero();
		assertThat(result.output().lines().filter((line) -> line.strip().equals("SUCCESS"))).hasSize(testFiles().size());
	}

	@Test
	void everyAlertRuleHasATestWhereItFiresAndOneWhereItStaysQuiet() throws IOException {
		Set<String> alerts = alertNames();
		assertThat(alerts).containsExactlyInAnyOrder("IdempotencyDuplicateRateHigh", "IdempotencyConflictsSpiking",
				"IdempotencyRepeatedFailures", "IdempotencyStuckRecords", "IdempotencyPurgeFallingBehind",
				"IdempotencyPurgeNotRunning", "IdempotencyStoreUnavailable");
		Set<String> firing = new TreeSet<>();
		Set<String> quiet = new TreeSet<>();
		for (Path file : testFiles()) {
			Map<String, Object> suite = yaml(file);
			assertThat(list(suite.get("rule_files"))).as(file.toString()).containsExactly("../prometheus-rules.yml");
			for (Object test : list(suite.get("tests"))) {
				for (Object check : list(map(test).get("alert_rule_test"))) {
					Map<String, Object> alertTest = map(check);
					String alert = (String) alertTest.get("alertname");
					(list(alertTest.get("exp_alerts")).isEmpty() ? quiet : firing).add(alert);
				}
			}
		}
		assertThat(firing).as("alerts with a test where they fire").containsAll(alerts);
		assertThat(quiet).as("alerts with a test where they stay quiet").containsAll(alerts);
	}

	static Set<String> alertNames() throws IOException {
		Set<String> names = new TreeSet<>();
		for (Map<String, Object> rule : rules()) {
			names.add((String) rule.get("alert"));
		}
		return names;
	}

	static List<Map<String, Object>> rules() throws IOException {
		List<Map<String, Object>> rules = new ArrayList<>();
		for (Object group : list(yaml(Repository.observability("prometheus-rules.yml")).get("groups"))) {
			list(map(group).get("rules")).forEach((rule) -> rules.add(map(rule)));
		}
		return rules;
	}

	private static List<Path> testFiles() throws IOException {
		try (Stream<Path> files = Files.list(Repository.observability("tests"))) {
			List<Path> tests = files.filter((file) -> file.toString().endsWith(".yml")).sorted().toList();
			assertThat(tests).isNotEmpty();
			return tests;
		}
	}

	private static Map<String, Object> yaml(Path file) throws IOException {
		try (Reader reader = Files.newBufferedReader(file)) {
			return new Yaml().load(reader);
		}
	}

	@SuppressWarnings("unchecked")
	static Map<String, Object> map(Object value) {
		return (Map<String, Object>) value;
	}

	@SuppressWarnings("unchecked")
	static List<Object> list(Object value) {
		return (value != null) ? (List<Object>) value : List.of();
	}

}
