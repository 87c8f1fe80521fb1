package io.github.idempotency.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyRecord;

/**
 * How long each operation's executions take in this instance, as a moving average, to tell a
 * duplicate when the request in progress will likely be done.
 */
final class ExecutionDurations {

	private static final Duration MINIMUM = Duration.ofSeconds(1);

	private final Map<String, Long> averageNanos = new ConcurrentHashMap<>();

	void record(String operation, Duration duration) {
		long nanos = duration.toNanos();
		this.averageNanos.merge(operation, nanos, (average, latest) -> (average * 7 + latest) / 8);
	}

	/**
	 * Return how long an operation's executions usually take here, at least a second.
	 * @param operation the operation
	 * @return when to retry a request of it whose key is locked by one in progress
	 */
	Duration usual(String operation) {
		Long average = this.averageNanos.get(operation);
		Duration usual = (average != null) ? Duration.ofNanos(average) : MINIMUM;
		return (usual.compareTo(MINIMUM) < 0) ? MINIMUM : usual;
	}

	/**
	 * Estimate how long until a record in progress is done: the operation's usual duration less
	 * how long it has run, at least a second, at most the rest of its lease.
	 * @param existing the record in progress and the rest of its lease
	 * @return when to retry
	 */
	Duration retryAfter(ClaimResult.Existing existing) {
		Duration leaseRemaining = existing.leaseRemaining();
		IdempotencyRecord record = existing.record();
		Long average = this.averageNanos.get(record.key().operation());
		if (average == null || record.lockedUntil() == null || record.createdAt() == null) {
			return leaseRemaining;
		}
		Instant now = record.lockedUntil().minus(leaseRemaining);
		Duration expectedRest = Duration.ofNanos(average).minus(Duration.between(record.createdAt(), now));
		Duration estimate = (expectedRest.compareTo(MINIMUM) < 0) ? MINIMUM : expectedRest;
		return (estimate.compareTo(leaseRemaining) > 0 && !leaseRemaining.isZero()) ? leaseRemaining : estimate;
	}

}
