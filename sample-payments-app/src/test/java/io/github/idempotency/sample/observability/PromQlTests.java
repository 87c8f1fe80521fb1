package io.github.idempotency.sample.observability;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PromQl}: the metric names of an expression, and nothing else.
 */
class PromQlTests {

	@Test
	void aRatioOfRatesSelectsItsTwoMetricsButNotItsLabelsFunctionsOrDurations() {
		assertThat(PromQl.metricNames("sum by (job, operation) (rate(idempotency_requests_total{outcome=\"replayed\","
				+ "job=~\"$job\"}[$__rate_interval])) / sum by (job, operation) (rate(idempotency_executions_seconds_count"
				+ "[10m] offset 5m)) > 0.2e1"))
			.containsExactlyInAnyOrder("idempotency_requests_total", "idempotency_executions_seconds_count");
	}

	@Test
	void aComparisonOfTwoSelectorsJoinedByAKeywordSelectsBoth() {
		assertThat(PromQl.metricNames("min by (job, instance) (idempotency_store_up) == 0\nor\n"
				+ "max without (instance) (deriv(idempotency_records_expired[30m])) >= bool 0 unless on (job) up"))
			.containsExactlyInAnyOrder("idempotency_store_up", "idempotency_records_expired", "up");
	}

	@Test
	void labelValuesInsideStringsAreNeverTakenForMetrics() {
		assertThat(PromQl.metricNames("count(idempotency_requests_total{error='IdempotencyStoreUnavailable',"
				+ "outcome=`rate_limited`})"))
			.containsExactly("idempotency_requests_total");
	}

}
