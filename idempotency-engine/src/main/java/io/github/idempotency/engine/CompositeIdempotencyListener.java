package io.github.idempotency.engine;

import java.time.Duration;
import java.util.List;

import io.github.idempotency.IdempotencyListener;
import io.github.idempotency.Outcome;

/**
 * Forwards every callback to each of a list of listeners.
 */
class CompositeIdempotencyListener implements IdempotencyListener {

	private final List<IdempotencyListener> listeners;

	public CompositeIdempotencyListener(List<IdempotencyListener> listeners) {
		this.listeners = List.copyOf(listeners);
	}

	@Override
	public void onOutcome(String operation, Outcome outcome) {
		this.listeners.forEach((listener) -> listener.onOutcome(operation, outcome));
	}

	@Override
	public void onExecutionStarted(String operation, boolean takenOver) {
		this.listeners.forEach((listener) -> listener.onExecutionStarted(operation, takenOver));
	}

	@Override
	public void onExecutionFinished(String operation, Duration duration) {
		this.listeners.forEach((listener) -> listener.onExecutionFinished(operation, duration));
	}

	@Override
	public void onAttemptFinished(String operation, int attempt, Outcome outcome) {
		this.listeners.forEach((listener) -> listener.onAttemptFinished(operation, attempt, outcome));
	}

}
