package io.github.idempotency.internal.engine;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionStatus;

import io.github.idempotency.IdempotencyContext;
import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.IdempotencyListener;
import io.github.idempotency.IdempotencyStoreUnavailableException;
import io.github.idempotency.Outcome;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.IdempotencyStore.SequenceAdvance;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.store.StoredResponse;

/**
 * A claimed key whose operation is running; it ends exactly once, by {@link #complete} or
 * {@link #release}, and its outcome follows the transaction it runs in: its own (ATOMIC), its
 * caller's (stored at the caller's commit, released at its rollback), or none (LEASED).
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

	private final int attempt;

	private final TransactionStatus transaction;

	private final long startNanos = System.nanoTime();

	private final AtomicBoolean finished = new AtomicBoolean();

	private volatile LeaseHeartbeat.Beat heartbeat;

	private volatile Runnable onFinish = () -> {
	};

	private volatile @Nullable Observation observation;

	private volatile @Nullable IdempotencyObservationContext observed;

	Execution(IdempotencyStore store, IdempotencyTransactions transactions, IdempotencyListener listener,
			ClaimRequest claim, ClaimResult.Claimed claimed, OperationPolicy policy, TransactionStatus transaction) {
		this.store = store;
		this.transactions = transactions;
		this.listener = listener;
		this.claim = claim;
		this.token = claimed.token();
		this.policy = policy;
		this.takenOver = claimed.takenOver();
		this.attempt = claimed.attempt();
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

	/**
	 * Return which run of the key's operation this is: 1 for the first, one more for each run
	 * after a transient failure or a lease that ran out.
	 * @return the attempt number
	 */
	public int attempt() {
		return this.attempt;
	}

	/**
	 * Return whether this execution still holds its key: an ATOMIC claim holds it by its row lock
	 * until it ends; a LEASED one while its lease is confirmed by its heartbeat.
	 * @return whether the lease is held
	 */
	public boolean leaseHeld() {
		LeaseHeartbeat.Beat beat = this.heartbeat;
		return beat == null || beat.held();
	}

	/**
	 * Return the context business code sees while this execution runs.
	 * @return the context
	 */
	public IdempotencyContext context() {
		return new Context();
	}

	void heartbeat(LeaseHeartbeat.Beat heartbeat) {
		this.heartbeat = heartbeat;
	}

	/**
	 * Run the given action, after those given before, once this execution ends.
	 */
	void onFinish(Runnable action) {
		Runnable before = this.onFinish;
		this.onFinish = () -> {
			try {
				before.run();
			}
			finally {
				action.run();
			}
		};
	}

	/**
	 * Stop the given observation of the guarded call once this execution ends, with its outcome.
	 */
	void observe(Observation observation, IdempotencyObservationContext observed) {
		this.observed = observed;
		this.observation = observation;
	}

	/**
	 * Offer the response for storing, to be replayed from now on.
	 * <ul>
	 * <li>ATOMIC in a transaction of its own: the operation's writes commit with it; when the
	 * operation failed finally they roll back and the response is stored on its own; when its
	 * transaction is rollback-only, nothing is stored and the key is released.</li>
	 * <li>ATOMIC joined to a caller's transaction: stored in it, so the caller's commit completes
	 * it; when the operation failed, the transaction is marked rollback-only, as a participating
	 * {@code @Transactional} method does.</li>
	 * <li>LEASED in a caller's transaction: stored at the caller's commit (in it, where the store
	 * shares the transaction), released at its rollback.</li>
	 * <li>LEASED otherwise: stored at once.</li>
	 * </ul>
	 * @param response the response
	 * @param failed whether the operation failed finally, so that its own writes must not commit
	 * @return how it ended
	 */
	public Completion complete(StoredResponse response, boolean failed) {
		begin();
		if (this.transaction != null) {
			stopHeartbeat();
			return this.transaction.isNewTransaction() ? completeAtomically(response, failed)
					: completeInCallerTransaction(response, failed);
		}
		if (this.transactions.callerTransactionActive()) {
			return completeWithCaller(response);
		}
		stopHeartbeat();
		boolean stored = false;
		try {
			stored = this.transactions.outside(() -> storeOutside(response));
			logger.debug("{} {} with status {}", key(), stored ? "completed" : "was taken over; not completed",
					response.status());
		}
		finally {
			end(stored ? Outcome.EXECUTED : Outcome.TAKEN_OVER);
		}
		return stored ? Completion.STORED : Completion.TAKEN_OVER;
	}

	/**
	 * Store the response outside any transaction. A store whose client sends a command again when
	 * the reply to the first was lost with its connection (Lettuce does) can answer that the key
	 * is no longer held in progress because the first one stored it: the record then holds this
	 * claim's token, completed, which no take-over leaves behind.
	 */
	private boolean storeOutside(StoredResponse response) {
		if (this.store.complete(key(), this.token, response, ttl())) {
			return true;
		}
		return this.store.find(key())
			.filter((record) -> record.status() == RecordStatus.COMPLETED && this.token.equals(record.token()))
			.isPresent();
	}

	/**
	 * Give the key up, for a reason not told, so that a retry runs the operation again.
	 */
	public void release() {
		release(null);
	}

	/**
	 * Give the key up after a transient failure so that a retry runs the operation again; the
	 * store keeps the failure with the key's attempts. In ATOMIC mode the operation's writes roll
	 * back with the claim, which leaves nothing to keep (a joined caller's transaction is marked
	 * rollback-only).
	 * @param failure what failed, as {@link FailureTypes} names it, or {@code null} if not told
	 */
	public void release(@Nullable String failure) {
		begin();
		stopHeartbeat();
		try {
			if (this.transaction != null) {
				this.transactions.rollback(this.transaction);
				logger.debug("{} rolled back", key());
			}
			else {
				releaseClaim(failure);
			}
		}
		finally {
			if (this.transaction != null && !this.transaction.isNewTransaction()) {
				endWithCaller(Outcome.RELEASED);
			}
			else {
				end(Outcome.RELEASED);
			}
		}
	}

	/**
	 * Leave the key to its lease: the work under it may still run, but its end cannot be seen, so
	 * the key is neither stored nor released; it frees when its lease runs out.
	 */
	public void abandon() {
		begin();
		stopHeartbeat();
		end(Outcome.ABANDONED);
	}

	/**
	 * Raise the highest sequence number of the call's scope to its own, before the operation runs:
	 * in ATOMIC mode in the operation's transaction, so that a rollback undoes it and concurrent
	 * calls of one scope take turns on it; in LEASED mode at once, as the claim. A lower number
	 * than the scope's highest gives the key up, without running or storing anything.
	 * @param sequence the call's scope and number
	 * @throws IdempotencyStaleSequenceException if the number is lower than the scope's highest
	 * @throws IdempotencyStoreUnavailableException if the store cannot be reached; the key is
	 * released
	 */
	public void advanceSequence(SequenceNumber sequence) {
		String tenant = key().tenant();
		Duration ttl = ttl();
		SequenceAdvance advance;
		try {
			advance = (this.transaction != null)
					? this.store.advanceSequence(tenant, sequence.scope(), sequence.number(), ttl)
					: this.transactions.outside(
							() -> this.store.advanceSequence(tenant, sequence.scope(), sequence.number(), ttl));
		}
		catch (RuntimeException ex) {
			release(FailureTypes.of(ex));
			throw (ex instanceof DataAccessException) ? new IdempotencyStoreUnavailableException(ex) : ex;
		}
		if (!advance.accepted()) {
			IdempotencyStaleSequenceException stale = new IdempotencyStaleSequenceException(sequence.number(),
					advance.highest());
			refuse(FailureTypes.of(stale));
			logger.debug("{} refused: sequence {} is below the highest, {}", key(), sequence.number(),
					advance.highest());
			throw stale;
		}
	}

	/**
	 * Give the key up for a call that is refused after its claim and never runs: in its own ATOMIC
	 * transaction the claim rolls back; in a caller's transaction it is released in it, which goes
	 * on; otherwise it is released at once.
	 */
	private void refuse(String failure) {
		begin();
		stopHeartbeat();
		try {
			if (this.transaction != null && this.transaction.isNewTransaction()) {
				this.transactions.rollback(this.transaction);
			}
			else if (this.transaction != null) {
				this.store.release(key(), this.token, failure);
			}
			else {
				releaseClaim(failure);
			}
		}
		finally {
			end(Outcome.STALE_SEQUENCE);
		}
	}

	private Completion completeAtomically(StoredResponse response, boolean failed) {
		if (failed) {
			this.transactions.rollback(this.transaction);
			return storeOnItsOwn(response);
		}
		if (this.transaction.isRollbackOnly()) {
			this.transactions.rollback(this.transaction);
			logger.warn("{}: its transaction was marked rollback-only, so its writes rolled back; nothing is stored "
					+ "and a retry runs it again", key());
			end(Outcome.RELEASED);
			return Completion.ROLLED_BACK;
		}
		Outcome outcome = Outcome.RELEASED;
		try {
			if (!this.store.complete(key(), this.token, response, ttl())) {
				throw new IllegalStateException(key() + " lost its claim inside its own transaction");
			}
			this.transactions.commit(this.transaction);
			outcome = Outcome.EXECUTED;
			logger.debug("{} committed with status {}", key(), response.status());
			return Completion.STORED;
		}
		finally {
			this.transactions.rollback(this.transaction);
			end(outcome);
		}
	}

	/**
	 * The operation's transaction rolled back; the final response is stored in a claim of its own,
	 * unless a duplicate that waited on the rolled-back claim got the key first: then the key's
	 * outcome is the duplicate's.
	 */
	private Completion storeOnItsOwn(StoredResponse response) {
		Completion completion = Completion.TAKEN_OVER;
		try {
			completion = this.transactions.outside(() -> {
				ClaimResult result = this.store.claim(this.claim);
				if (result instanceof ClaimResult.Claimed claimed) {
					return this.store.complete(key(), claimed.token(), response, ttl()) ? Completion.STORED
							: Completion.TAKEN_OVER;
				}
				ClaimResult.Existing existing = (ClaimResult.Existing) result;
				return new Completion.Superseded(Decision.of(existing, this.claim.fingerprint(),
						existing.leaseRemaining()));
			});
			logger.debug("{} rolled back; its final response {}", key(),
					(completion == Completion.STORED) ? "is stored" : "gave way to a duplicate");
			return completion;
		}
		finally {
			end((completion == Completion.STORED) ? Outcome.EXECUTED : Outcome.TAKEN_OVER);
		}
	}

	private Completion completeInCallerTransaction(StoredResponse response, boolean failed) {
		if (failed) {
			this.transactions.rollback(this.transaction);
			endWithCaller(Outcome.RELEASED);
			return Completion.ROLLED_BACK;
		}
		boolean stored = false;
		try {
			stored = this.store.complete(key(), this.token, response, ttl());
			if (!stored) {
				throw new IllegalStateException(key() + " lost its claim inside its caller's transaction");
			}
		}
		finally {
			if (!stored) {
				this.transactions.rollback(this.transaction);
			}
			endWithCaller(Outcome.EXECUTED);
		}
		return Completion.STORED;
	}

	/**
	 * A LEASED execution inside a caller's transaction: where the store shares that transaction,
	 * the completion is written in it and commits or rolls back with it; otherwise it is written
	 * once the caller has committed, the lease being renewed until then. Either way a rollback
	 * releases the key.
	 */
	private Completion completeWithCaller(StoredResponse response) {
		boolean joined = this.transactions.storeJoinsCallerTransaction();
		if (joined) {
			stopHeartbeat();
			boolean stored;
			try {
				stored = this.store.complete(key(), this.token, response, ttl());
			}
			catch (RuntimeException ex) {
				releaseQuietly(FailureTypes.of(ex));
				end(Outcome.RELEASED);
				throw ex;
			}
			if (!stored) {
				end(Outcome.TAKEN_OVER);
				return Completion.TAKEN_OVER;
			}
		}
		this.transactions.afterCallerCompletion((committed) -> {
			Outcome outcome = Outcome.RELEASED;
			try {
				if (committed && joined) {
					outcome = Outcome.EXECUTED;
				}
				else if (committed) {
					stopHeartbeat();
					outcome = this.transactions.outside(() -> storeOutside(response)) ? Outcome.EXECUTED
							: Outcome.TAKEN_OVER;
				}
				else {
					stopHeartbeat();
					releaseClaim(FailureTypes.CALLER_ROLLED_BACK);
				}
			}
			catch (RuntimeException ex) {
				logger.warn("Could not {} {} after its caller's transaction ended; it frees when its lease runs out",
						committed ? "complete" : "release", key(), ex);
			}
			finally {
				end(outcome);
			}
		});
		return Completion.STORED;
	}

	private void endWithCaller(Outcome outcomeIfCommitted) {
		this.transactions.afterCallerCompletion(
				(committed) -> end(committed ? outcomeIfCommitted : Outcome.RELEASED));
	}

	private void releaseClaim(@Nullable String failure) {
		boolean released = this.transactions.outside(() -> this.store.release(key(), this.token, failure));
		logger.debug("{} {}", key(), released ? "released" : "was taken over; not released");
	}

	private void releaseQuietly(String failure) {
		try {
			releaseClaim(failure);
		}
		catch (RuntimeException ex) {
			logger.warn("Could not release {}; it frees when its lease runs out", key(), ex);
		}
	}

	private Duration ttl() {
		return this.policy.ttl();
	}

	private void begin() {
		if (!this.finished.compareAndSet(false, true)) {
			throw new IllegalStateException(key() + " has already been completed or released");
		}
	}

	private void stopHeartbeat() {
		LeaseHeartbeat.Beat beat = this.heartbeat;
		if (beat != null) {
			beat.stop();
		}
	}

	/**
	 * Report how the execution ended and wake the duplicates waiting for it in this instance,
	 * once its outcome is stored or committed, so that their next look finds it.
	 */
	private void end(Outcome outcome) {
		try {
			this.listener.onExecutionFinished(key().operation(), Duration.ofNanos(System.nanoTime() - this.startNanos));
			this.listener.onOutcome(key().operation(), outcome);
			this.listener.onAttemptFinished(key().operation(), this.attempt, outcome);
			Observation observation = this.observation;
			IdempotencyObservationContext observed = this.observed;
			if (observation != null && observed != null) {
				observed.outcome(outcome.tag());
				observation.event(IdempotencyObservationDocumentation.Events.FINISHED);
				observation.stop();
			}
		}
		finally {
			this.onFinish.run();
		}
	}

	/**
	 * What business code sees of this execution.
	 */
	private final class Context implements IdempotencyContext {

		@Override
		public IdempotencyKey key() {
			return Execution.this.key();
		}

		@Override
		public UUID fencingToken() {
			return Execution.this.token;
		}

		@Override
		public void checkLease() {
			if (!leaseHeld()) {
				throw IdempotencyLeaseLostException.notRenewed(Execution.this.policy.lease());
			}
		}

		/**
		 * Writes the reference outside the operation's transaction, so that it commits at once;
		 * it is kept at least the operation's TTL plus its lease, beyond which its record, if
		 * any, keeps it.
		 */
		@Override
		public void reference(String name, String value) {
			References.check(name, value);
			IdempotencyStore store = Execution.this.store;
			if (!store.supportsReferences()) {
				throw new UnsupportedOperationException(
						"The idempotency store " + store.getClass().getName() + " keeps no references");
			}
			Duration ttl = Execution.this.policy.ttl().plus(Execution.this.policy.lease());
			Execution.this.transactions.outside(() -> {
				store.addReference(key(), name, value, ttl);
				return null;
			});
			logger.debug("{} references {}", key(), name);
		}

	}

}
