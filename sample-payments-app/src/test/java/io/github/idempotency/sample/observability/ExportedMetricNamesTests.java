package io.github.idempotency.sample.observability;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.support.PaymentsHttpTest;
import io.github.idempotency.testsupport.Http;

import static io.github.idempotency.sample.support.Payments.body;
import static io.github.idempotency.sample.support.Payments.customer;
import static io.github.idempotency.sample.support.Payments.newKey;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shipped Grafana dashboard and alert rules query only metrics that the starter really
 * exports: the sample's {@code /actuator/prometheus} scrape, after a few requests, has every
 * metric name their PromQL selects.
 */
class ExportedMetricNamesTests extends PaymentsHttpTest {

	private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\(\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*[,{]");

	@Test
	void everyMetricThatTheDashboardAndTheAlertRulesQueryIsInTheSamplesPrometheusScrape() throws IOException {
		String key = newKey();
		String request = body(customer("c-"), 2999, "USD");
		assertThat(pay(key, request).statusCode()).isEqualTo(201);
		assertThat(pay(key, request).statusCode()).isEqualTo(201);
		assertThat(pay(key, body(customer("c-"), 100, "USD")).statusCode()).isEqualTo(422);
		HttpResponse<byte[]> scrape = this.http.get("/actuator/prometheus").send();
		assertThat(scrape.statusCode()).isEqualTo(200);
		assertThat(scrape.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("text/plain"));
		Set<String> exported = sampleNames(Http.text(scrape));
		assertThat(exported).contains("idempotency_requests_total");
		Map<String, Set<String>> queried = Map.of("the Grafana dashboard", dashboardMetrics(), "the alert rules",
				ruleMetrics());
		queried.forEach((source, names) -> {
			assertThat(names).as(source).isNotEmpty();
			Set<String> missing = new TreeSet<>(names);
			missing.removeAll(exported);
			assertThat(missing).as("metrics that %s queries but the sample does not export", source).isEmpty();
		});
	}

	private HttpResponse<byte[]> pay(String key, String request) {
		return this.http.post("/payments").key(key).json(request).send();
	}

	private static Set<String> dashboardMetrics() throws IOException {
		JsonNode dashboard = Dashboards.dashboard();
		Set<String> names = new TreeSet<>();
		Dashboards.expressions(dashboard).forEach((query) -> names.addAll(PromQl.metricNames(query)));
		for (String query : Dashboards.variableQueries(dashboard)) {
			Matcher metric = LABEL_VALUES.matcher(query);
			assertThat(metric.find()).as(query).isTrue();
			names.add(metric.group(1));
		}
		return names;
	}

	private static Set<String> ruleMetrics() throws IOException {
		Set<String> names = new TreeSet<>();
		AlertRulesTests.rules().forEach((rule) -> names.addAll(PromQl.metricNames((String) rule.get("expr"))));
		return names;
	}

	/**
	 * The name of every sample of a scrape in the Prometheus text format.
	 */
	private static Set<String> sampleNames(String scrape) {
		Set<String> names = new TreeSet<>();
		scrape.lines().filter((line) -> !line.isBlank() && !line.startsWith("#")).forEach((line) -> {
			int end = 0;
			while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
				end++;
			}
			names.add(line.substring(0, end));
		});
		return names;
	}

}
