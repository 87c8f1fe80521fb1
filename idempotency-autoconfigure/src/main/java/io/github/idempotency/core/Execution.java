package io.github.idempotency.core;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.TransactionStatus;

import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.StoredResponse;

/**
 * A claimed key whose operation is running; it ends exactly once, by {@link #complete} or
 * {@link #release}. In ATOMIC mode it owns the transaction that the claim, the operation's writes
 * and the completion share.
 */
public final class Execution {

	private static final Logger logger = LoggerFactory.getLogger(Execution.class);

	private final IdempotencyStore store;

	private final IdempotencyTransactions transactions;

	private final IdempotencyListener listener;

	private final ClaimRequest claim;

	private final UUID token;

	private final OperationPolicy policy;

	private final boolean takenOver;

	private final TransactionStatus transaction;

	private final long startNanos = System.nanoTime();

	private final AtomicBoolean finished = new AtomicBoolean();

	private volatile LeaseHeartbeat.Beat heartbeat;

	private volatile Runnable onFinish = () -> {
	};

	Execution(IdempotencyStore store, IdempotencyTransactions transactions, IdempotencyListener listener,
			ClaimRequest claim, UUID token, OperationPolicy policy, boolean takenOver, TransactionStatus transaction) {
		this.store = store;
		this.transactions = transactions;
		this.listener = listener;
		this.claim = claim;
		this.token = token;
		this.policy = policy;
		this.takenOver = takenOver;
		this.transaction = transaction;
	}

	public IdempotencyKey key() {
		return this.claim.key();
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

	void heartbeat(LeaseHeartbeat.Beat heartbeat) {
		this.heartbeat = heartbeat;
	}

	void onFinish(Runnable onFinish) {
		this.onFinish = onFinish;
	}

	/**
	 * Store the response for replay. In ATOMIC mode the operation's writes commit with it, unless
	 * they must be discarded: then they roll back and the response is stored on its own.
	 * @param response the response
	 * @param discardEffects whether the operation failed, so that its own writes must not commit
	 * @return {@code false} if the lease was taken over meanwhile and nothing was stored
	 */
	public boolean complete(StoredResponse response, boolean discardEffects) {
		finish();
		Outcome outcome = Outcome.RELEASED;
		try {
			boolean stored = (this.transaction != null) ? completeAtomically(response, discardEffects)
					: this.transactions.outside(() -> this.store.complete(key(), this.token, response, this.policy.ttl()));
			outcome = stored ? Outcome.EXECUTED : Outcome.TAKEN_OVER;
			logger.debug("{} {} with status {}", key(), stored ? "completed" : "was taken over; not completed",
					response.status());
			return stored;
		}
		finally {
			this.listener.onOutcome(key().operation(), outcome);
		}
	}

	/**
	 * Give the key up so that a retry runs the operation again; in ATOMIC mode the operation's
	 * writes roll back with the claim.
	 */
	public void release() {
		finish();
		try {
			if (this.transaction != null) {
				this.transactions.rollback(this.transaction);
				logger.debug("{} rolled back", key());
			}
			else {
				boolean released = this.transactions.outside(() -> this.store.release(key(), this.token));
				logger.debug("{} {}", key(), released ? "released" : "was taken over; not released");
			}
		}
		finally {
			this.listener.onOutcome(key().operation(), Outcome.RELEASED);
		}
	}

	private boolean completeAtomically(StoredResponse response, boolean discardEffects) {
		if (discardEffects || this.transaction.isRollbackOnly()) {
			this.transactions.rollback(this.transaction);
			return storeOnItsOwn(response);
		}
		try {
			if (!this.store.complete(key(), this.token, response, this.policy.ttl())) {
				throw new IllegalStateException(key() + " lost its claim inside its own transaction");
			}
		}
		catch (RuntimeException ex) {
			this.transactions.rollback(this.transaction);
			throw ex;
		}
		this.transactions.commit(this.transaction);
		return true;
	}

	/**
	 * The operation's transaction rolled back; the final response is stored in a claim of its own,
	 * unless a duplicate that waited on the rolled-back claim got the key first.
	 */
	private boolean storeOnItsOwn(StoredResponse response) {
		return this.transactions.outside(() -> {
			ClaimResult result = this.store.claim(this.claim);
			if (result instanceof ClaimResult.Claimed claimed) {
				this.store.complete(key(), claimed.token(), response, this.policy.ttl());
			}
			return true;
		});
	}

	private void finish() {
		if (!this.finished.compareAndSet(false, true)) {
			throw new IllegalStateException(key() + " has already been completed or released");
		}
		LeaseHeartbeat.Beat beat = this.heartbeat;
		if (beat != null) {
			beat.stop();
		}
		this.onFinish.run();
		this.listener.onExecutionFinished(key().operation(), Duration.ofNanos(System.nanoTime() - this.startNanos));
	}

}
