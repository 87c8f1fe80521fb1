package io.github.idempotency.actuate;

import java.time.Duration;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.core.Ordered;

import io.github.idempotency.IdempotencyListener;
import io.github.idempotency.Outcome;

/**
 * Records what the engine does as Micrometer meters tagged with the operation only, never the
 * key or the tenant; every meter of an operation is registered at once, so that dashboards show
 * zeros before the first request. It is called before the application's listeners, so that one
 * that blocks or throws cannot hide an execution from the meters.
 */
class IdempotencyMetrics implements IdempotencyListener, Ordered {

	/**
	 * Counter of idempotent requests, tagged {@code operation} and {@code outcome}.
	 */
	public static final String REQUESTS = "idempotency.requests";

	/**
	 * Timer of claimed executions, from the claim to the stored or released result, tagged
	 * {@code operation}.
	 */
	public static final String EXECUTIONS = "idempotency.executions";

	/**
	 * Gauge of the executions running in this instance, tagged {@code operation}.
	 */
	public static final String ACTIVE_EXECUTIONS = "idempotency.executions.active";

	/**
	 * Counter of claims that took over a key whose lease had run out, tagged {@code operation}.
	 */
	public static final String TAKEOVERS = "idempotency.takeovers";

	/**
	 * Distribution of the attempt number of each execution whose response was stored, that is
	 * how many runs its key took, tagged {@code operation}.
	 */
	public static final String ATTEMPTS = "idempotency.attempts";

	/**
	 * Counter of keys whose transient failures reached the repeated-failures threshold, each
	 * counted once, tagged {@code operation}.
	 */
	public static final String REPEATED_FAILURES = "idempotency.repeated.failures";

	/**
	 * How many transient failures of one key count it in {@link #REPEATED_FAILURES} by default.
	 */
	public static final int DEFAULT_REPEATED_FAILURES = 3;

	private final MeterRegistry registry;

	private final int repeatedFailures;

	private final Map<String, OperationMeters> operations = new ConcurrentHashMap<>();

	/**
	 * Create the meters of the given operations.
	 * @param registry the registry
	 * @param operations the operations known up front
	 */
	public IdempotencyMetrics(MeterRegistry registry, Collection<String> operations) {
		this(registry, operations, DEFAULT_REPEATED_FAILURES);
	}

	/**
	 * Create the meters of the given operations.
	 * @param registry the registry
	 * @param operations the operations known up front
	 * @param repeatedFailures how many transient failures of one key count it in
	 * {@link #REPEATED_FAILURES}
	 */
	public IdempotencyMetrics(MeterRegistry registry, Collection<String> operations, int repeatedFailures) {
		if (repeatedFailures < 1) {
			throw new IllegalArgumentException(
					"The repeated-failures threshold must be at least 1, not " + repeatedFailures);
		}
		this.registry = registry;
		this.repeatedFailures = repeatedFailures;
		operations.forEach(this::register);
	}

	/**
	 * Register every meter of an operation, unless they are registered already.
	 * @param operation the operation name
	 */
	public void register(String operation) {
		meters(operation);
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	@Override
	public void onOutcome(String operation, Outcome outcome) {
		meters(operation).requests.get(outcome).increment();
	}

	@Override
	public void onExecutionStarted(String operation, boolean takenOver) {
		OperationMeters meters = meters(operation);
		meters.active.incrementAndGet();
		if (takenOver) {
			meters.takeovers.increment();
		}
	}

	@Override
	public void onExecutionFinished(String operation, Duration duration) {
		OperationMeters meters = meters(operation);
		meters.active.decrementAndGet();
		meters.executions.record(duration);
	}

	/**
	 * Record how many runs the key of a stored execution took, and count a key once when its
	 * failures in a row reach the threshold, as the attempt that fails that many times is released.
	 */
	@Override
	public void onAttemptFinished(String operation, int attempt, Outcome outcome) {
		OperationMeters meters = meters(operation);
		if (outcome == Outcome.EXECUTED) {
			meters.attempts.record(attempt);
		}
		else if (outcome == Outcome.RELEASED && attempt == this.repeatedFailures) {
			meters.repeatedFailures.increment();
		}
	}

	private OperationMeters meters(String operation) {
		OperationMeters meters = this.operations.get(operation);
		return (meters != null) ? meters
				: this.operations.computeIfAbsent(operation, (name) -> new OperationMeters(this.registry, name));
	}

	/**
	 * The meters of one operation.
	 */
	private static final class OperationMeters {

		final Map<Outcome, Counter> requests = new EnumMap<>(Outcome.class);

		final Timer executions;

		final AtomicInteger active = new AtomicInteger();

		final Counter takeovers;

		final DistributionSummary attempts;

		final Counter repeatedFailures;

		OperationMeters(MeterRegistry registry, String operation) {
			for (Outcome outcome : Outcome.values()) {
				this.requests.put(outcome, Counter.builder(REQUESTS)
					.description("Idempotent requests by how they ended")
					.tag("operation", operation)
					.tag("outcome", outcome.tag())
					.register(registry));
			}
			this.executions = Timer.builder(EXECUTIONS)
				.description("Executions of idempotent operations, from the claim to the stored or released result")
				.tag("operation", operation)
				.register(registry);
			Gauge.builder(ACTIVE_EXECUTIONS, this.active, AtomicInteger::get)
				.description("Executions of idempotent operations running in this instance")
				.tag("operation", operation)
				.register(registry);
			this.takeovers = Counter.builder(TAKEOVERS)
				.description("Claims that took over a key whose lease had run out")
				.tag("operation", operation)
				.register(registry);
			this.attempts = DistributionSummary.builder(ATTEMPTS)
				.description("Runs a key took until its response was stored")
				.baseUnit("attempts")
				.tag("operation", operation)
				.register(registry);
			this.repeatedFailures = Counter.builder(REPEATED_FAILURES)
				.description("Keys whose transient failures in a row reached idempotency.alerts.repeated-failures")
				.tag("operation", operation)
				.register(registry);
		}

	}

}
