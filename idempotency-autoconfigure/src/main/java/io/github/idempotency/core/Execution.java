package io.github.idempotency.core;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.StoredResponse;

/**
 * A claimed key whose operation is running; it ends exactly once, by {@link #complete} or
 * {@link #release}.
 */
public final class Execution {

	private static final Logger logger = LoggerFactory.getLogger(Execution.class);

	private final IdempotencyStore store;

	private final IdempotencyListener listener;

	private final IdempotencyKey key;

	private final UUID token;

	private final OperationPolicy policy;

	private final boolean takenOver;

	private final long startNanos = System.nanoTime();

	private final AtomicBoolean finished = new AtomicBoolean();

	Execution(IdempotencyStore store, IdempotencyListener listener, IdempotencyKey key, UUID token,
			OperationPolicy policy, boolean takenOver) {
		this.store = store;
		this.listener = listener;
		this.key = key;
		this.token = token;
		this.policy = policy;
		this.takenOver = takenOver;
	}

	public IdempotencyKey key() {
		return this.key;
	}

	/**
	 * Return the fencing token of this claim, which business code may forward downstream.
	 * @return the token
	 */
	public UUID token() {
		return this.token;
	}

	public OperationPolicy policy() {
		return this.policy;
	}

	/**
	 * Return whether this claim took over an earlier one whose lease had run out.
	 * @return whether the key was taken over
	 */
	public boolean takenOver() {
		return this.takenOver;
	}

	/**
	 * Store the response for replay.
	 * @param response the response
	 * @return {@code false} if the lease was taken over meanwhile and nothing was stored
	 */
	public boolean complete(StoredResponse response) {
		finish();
		Outcome outcome = Outcome.RELEASED;
		try {
			boolean stored = this.store.complete(this.key, this.token, response, this.policy.ttl());
			outcome = stored ? Outcome.EXECUTED : Outcome.TAKEN_OVER;
			logger.debug("{} {} with status {}", this.key, stored ? "completed" : "was taken over; not completed",
					response.status());
			return stored;
		}
		finally {
			this.listener.onOutcome(this.key.operation(), outcome);
		}
	}

	/**
	 * Delete the claim so that a retry runs the operation again.
	 * @return {@code false} if the lease was taken over meanwhile
	 */
	public boolean release() {
		finish();
		try {
			boolean released = this.store.release(this.key, this.token);
			logger.debug("{} {}", this.key, released ? "released" : "was taken over; not released");
			return released;
		}
		finally {
			this.listener.onOutcome(this.key.operation(), Outcome.RELEASED);
		}
	}

	private void finish() {
		if (!this.finished.compareAndSet(false, true)) {
			throw new IllegalStateException(this.key + " has already been completed or released");
		}
		this.listener.onExecutionFinished(this.key.operation(), Duration.ofNanos(System.nanoTime() - this.startNanos));
	}

}
