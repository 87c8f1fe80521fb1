package io.github.idempotency.sample.ledger;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.github.idempotency.IdempotencyListener;
import io.github.idempotency.Outcome;

/**
 * Listens to the starter's engine for the ledger operation: counts its outcomes, and on request
 * holds its next execution right after the key is claimed, so that a duplicate arrives while the
 * first delivery is in progress.
 */
public class ExecutionGate implements IdempotencyListener {

	private static final String OPERATION = "post-ledger-entry";

	private final Map<Outcome, AtomicLong> outcomes = new ConcurrentHashMap<>();

	private final AtomicBoolean armed = new AtomicBoolean();

	private volatile CountDownLatch entered = new CountDownLatch(1);

	private volatile CountDownLatch released = new CountDownLatch(0);

	/**
	 * Hold the next execution until {@link #release()}.
	 */
	public void holdNextExecution() {
		this.entered = new CountDownLatch(1);
		this.released = new CountDownLatch(1);
		this.armed.set(true);
	}

	/**
	 * Return whether the held execution has started.
	 * @return whether an execution is being held
	 */
	public boolean isHolding() {
		return this.entered.getCount() == 0;
	}

	/**
	 * Let the held execution, if any, go on.
	 */
	public void release() {
		this.armed.set(false);
		this.released.countDown();
	}

	/**
	 * Return how many calls of the ledger operation ended with an outcome.
	 * @param outcome the outcome
	 * @return the count
	 */
	public long count(Outcome outcome) {
		AtomicLong count = this.outcomes.get(outcome);
		return (count != null) ? count.get() : 0;
	}

	/**
	 * Forget the counts and release any held execution.
	 */
	public void reset() {
		release();
		this.outcomes.clear();
	}

	@Override
	public void onOutcome(String operation, Outcome outcome) {
		if (OPERATION.equals(operation)) {
			this.outcomes.computeIfAbsent(outcome, (key) -> new AtomicLong()).incrementAndGet();
		}
	}

	@Override
	public void onExecutionStarted(String operation, boolean takenOver) {
		if (OPERATION.equals(operation) && this.armed.compareAndSet(true, false)) {
			this.entered.countDown();
			try {
				this.released.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
