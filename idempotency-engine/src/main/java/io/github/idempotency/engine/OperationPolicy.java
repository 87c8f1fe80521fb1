package io.github.idempotency.engine;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

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
 * @param acceptAfter how long an HTTP request waits for its work before it is answered
 * {@code 202 Accepted} while the work goes on, or {@code null} to answer only once it is done
 */
public record OperationPolicy(String operation, IdempotencyMode mode, Duration ttl, Duration lease, Duration maxWait,
		boolean archive, @Nullable Duration acceptAfter) {

	public OperationPolicy(String operation, IdempotencyMode mode, Duration ttl, Duration lease, Duration maxWait,
			boolean archive) {
		this(operation, mode, ttl, lease, maxWait, archive, null);
	}

	public OperationPolicy {
		Objects.requireNonNull(operation, "operation");
		Objects.requireNonNull(mode, "mode");
		requirePositive(ttl, "ttl");
		requirePositive(lease, "lease");
		Objects.requireNonNull(maxWait, "maxWait");
		if (maxWait.isNegative()) {
			throw new IllegalArgumentException("The wait of operation '" + operation + "' must not be negative");
		}
		if (acceptAfter != null && acceptAfter.isNegative()) {
			throw new IllegalArgumentException(
					"The accept-after of operation '" + operation + "' must not be negative");
		}
		if (acceptAfter != null && mode == IdempotencyMode.ATOMIC) {
			throw new IllegalArgumentException("Operation '" + operation + "' sets accept-after, which runs its work "
					+ "after its request is answered, outside the transaction an ATOMIC claim joins. Run it LEASED "
					+ "(idempotency.operations." + operation + ".mode=LEASED), or remove accept-after.");
		}
	}

	/**
	 * Return whether a request of this operation may be answered {@code 202 Accepted} while its
	 * work goes on.
	 * @return whether {@link #acceptAfter()} is set
	 */
	public boolean accepts() {
		return this.acceptAfter != null;
	}

	private static void requirePositive(Duration duration, String name) {
		Objects.requireNonNull(duration, name);
		if (duration.isZero() || duration.isNegative()) {
			throw new IllegalArgumentException("The " + name + " must be positive, not " + duration);
		}
	}

}
