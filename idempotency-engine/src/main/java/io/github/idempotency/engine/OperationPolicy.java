package io.github.idempotency.engine;

import java.time.Duration;
import java.util.Objects;

import io.github.idempotency.annotation.IdempotencyMode;

/**
 * The effective settings of one operation.
 *
 * @param operation the operation name
 * @param mode the crash-safety mode
 * @param ttl how long a completed record is replayed
 * @param lease how long a claim is exclusive before a retry may take it over
 * @param maxWait how long a duplicate waits for the first request before answering 409
 * @param archive whether records are archived before they are purged
 */
public record OperationPolicy(String operation, IdempotencyMode mode, Duration ttl, Duration lease, Duration maxWait,
		boolean archive) {

	public OperationPolicy {
		Objects.requireNonNull(operation, "operation");
		Objects.requireNonNull(mode, "mode");
		requirePositive(ttl, "ttl");
		requirePositive(lease, "lease");
		Objects.requireNonNull(maxWait, "maxWait");
		if (maxWait.isNegative()) {
			throw new IllegalArgumentException("The wait of operation '" + operation + "' must not be negative");
		}
	}

	private static void requirePositive(Duration duration, String name) {
		Objects.requireNonNull(duration, name);
		if (duration.isZero() || duration.isNegative()) {
			throw new IllegalArgumentException("The " + name + " must be positive, not " + duration);
		}
	}

}
