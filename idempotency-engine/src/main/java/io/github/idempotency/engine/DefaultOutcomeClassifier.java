package io.github.idempotency.engine;

import java.util.List;
import java.util.Set;

import io.github.idempotency.Disposition;
import io.github.idempotency.OutcomeClassifier;

/**
 * Stores 2xx, 3xx and 4xx responses except for the transient statuses (by default 408, 409, 425
 * and 429); releases on 5xx and on exceptions of a transient type anywhere in the cause chain.
 * Exceptions of a final type are stored whatever status they were rendered with.
 */
class DefaultOutcomeClassifier implements OutcomeClassifier {

	/**
	 * The 4xx statuses that are retryable by definition.
	 */
	public static final Set<Integer> DEFAULT_TRANSIENT_STATUSES = Set.of(408, 409, 425, 429);

	private final Set<Integer> transientStatuses;

	private final List<Class<? extends Throwable>> finalExceptions;

	private final List<Class<? extends Throwable>> transientExceptions;

	public DefaultOutcomeClassifier() {
		this(DEFAULT_TRANSIENT_STATUSES, List.of(), List.of());
	}

	public DefaultOutcomeClassifier(Set<Integer> transientStatuses, List<Class<? extends Throwable>> finalExceptions,
			List<Class<? extends Throwable>> transientExceptions) {
		this.transientStatuses = Set.copyOf(transientStatuses);
		this.finalExceptions = List.copyOf(finalExceptions);
		this.transientExceptions = List.copyOf(transientExceptions);
	}

	@Override
	public Disposition classify(int status, Throwable failure) {
		if (failure != null) {
			if (isTransient(failure)) {
				return Disposition.RELEASE;
			}
			if (matches(this.finalExceptions, failure)) {
				return Disposition.STORE;
			}
		}
		return (status >= 500 || this.transientStatuses.contains(status)) ? Disposition.RELEASE : Disposition.STORE;
	}

	@Override
	public Disposition classify(Throwable failure) {
		if (failure == null) {
			return Disposition.STORE;
		}
		return (!isTransient(failure) && matches(this.finalExceptions, failure)) ? Disposition.STORE
				: Disposition.RELEASE;
	}

	private boolean isTransient(Throwable failure) {
		return matches(this.transientExceptions, failure) || TransientFailures.isTransient(failure);
	}

	private static boolean matches(List<Class<? extends Throwable>> types, Throwable failure) {
		for (Throwable t : TransientFailures.causeChain(failure)) {
			for (Class<? extends Throwable> type : types) {
				if (type.isInstance(t)) {
					return true;
				}
			}
		}
		return false;
	}

}
