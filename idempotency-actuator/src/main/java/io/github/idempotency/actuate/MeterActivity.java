package io.github.idempotency.actuate;

import java.util.Map;
import java.util.TreeMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import io.github.idempotency.actuate.ActivityDescriptor.OperationActivity;
import io.github.idempotency.actuate.ActivityDescriptor.PurgeActivity;

/**
 * {@link IdempotencyActivity} read from the meters of the registry, so that every outcome the
 * requests meter has a counter for is shown, whichever part of the starter counts it.
 */
class MeterActivity implements IdempotencyActivity {

	private static final String OPERATION = "operation";

	private final MeterRegistry registry;

	public MeterActivity(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public ActivityDescriptor activity() {
		Map<String, Map<String, Long>> outcomes = new TreeMap<>();
		for (Counter counter : this.registry.find(IdempotencyMetrics.REQUESTS).counters()) {
			outcomes.computeIfAbsent(tag(counter, OPERATION), (operation) -> new TreeMap<>())
				.merge(tag(counter, "outcome"), Math.round(counter.count()), Long::sum);
		}
		Map<String, Long> inFlight = new TreeMap<>();
		for (Gauge gauge : this.registry.find(IdempotencyMetrics.ACTIVE_EXECUTIONS).gauges()) {
			inFlight.merge(tag(gauge, OPERATION), Math.round(gauge.value()), Long::sum);
		}
		Map<String, Long> takeovers = new TreeMap<>();
		for (Counter counter : this.registry.find(IdempotencyMetrics.TAKEOVERS).counters()) {
			takeovers.merge(tag(counter, OPERATION), Math.round(counter.count()), Long::sum);
		}
		Map<String, OperationActivity> operations = new TreeMap<>();
		outcomes.forEach((operation, counts) -> operations.put(operation, new OperationActivity(counts,
				inFlight.getOrDefault(operation, 0L), takeovers.getOrDefault(operation, 0L))));
		return new ActivityDescriptor(operations, purge());
	}

	private @Nullable PurgeActivity purge() {
		Timer runs = this.registry.find(IdempotencyPurgeMetrics.RUNS).timer();
		if (runs == null) {
			return null;
		}
		Map<String, Long> deleted = new TreeMap<>();
		for (Counter counter : this.registry.find(IdempotencyPurgeMetrics.DELETED).counters()) {
			deleted.merge(tag(counter, "reason"), Math.round(counter.count()), Long::sum);
		}
		long archived = Math.round(this.registry.find(IdempotencyPurgeMetrics.ARCHIVED)
			.counters()
			.stream()
			.mapToDouble(Counter::count)
			.sum());
		return new PurgeActivity(runs.count(), deleted, archived);
	}

	private static String tag(Meter meter, String key) {
		String value = meter.getId().getTag(key);
		return (value != null) ? value : "";
	}

}
