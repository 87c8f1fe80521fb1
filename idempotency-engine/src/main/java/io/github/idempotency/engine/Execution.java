package io.github.idempotency.engine;

import io.github.idempotency.store.FailureTypes;
import io.github.idempotency.store.ReferencingIdempotencyStore;
import io.github.idempotency.IdempotencyLeaseLostException;
import io.github.idempotency.IdempotencyStaleSequenceException;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

import io.github.idempotency.IdempotencyContext;
import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.IdempotencyListener;
import io.github.idempotency.IdempotencyStoreUnavailableException;
import io.github.idempotency.Outcome;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.NonBlockingIdempotencyStore;
import io.github.idempotency.store.SequencingIdempotencyStore;
import io.github.idempotency.store.SequencingIdempotencyStore.SequenceAdvance;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.store.StoredResponse;

/**
 * A claimed key whose operation is running; it ends exactly once, by {@link #complete} or
 * {@link #release}, and its outcome follows the transaction it runs in: its own (ATOMIC), its
 * caller's (stored at the caller's commit, released at its rollback), or none (LEASED).
 */
final class Execution {

	private static final Logger logger = LoggerFactory.getLogger(Execution.class);

	private final IdempotencyStore store;

	private final IdempotencyTransactions transactions;

	private final IdempotencyListener listener;

	private final ClaimRequest claim;

	private final UUID token;

	private final OperationPolicy policy;

	private final boolean takenOver;

	private final int attempt;

	private final Settlement settlement;

	private final long startNanos = System.nanoTime();

	private final AtomicBoolean finished = new AtomicBoolean();

	private volatile LeaseHeartbeat.Beat heartbeat;

	private volatile Runnable onFinish = () -> {
	};

	private volatile @Nullable Observation observation;

	private volatile @Nullable IdempotencyObservationContext observed;

	Execution(IdempotencyStore store, IdempotencyTransactions transactions, IdempotencyListener listener,
			ClaimRequest claim, ClaimResult.Claimed claimed, OperationPolicy policy, Settlement settlement) {
		this.store = store;
		this.transactions = transactions;
		this.listener = listener;
		this.claim = claim;
		this.token = claimed.token();
		this.policy = policy;
		this.takenOver = claimed.takenOver();
		this.attempt = claimed.attempt();
		this.settlement = settlement;
	}

	public IdempotencyKey key() {
		return this.claim.key();
	}

	ClaimRequest claim() {
		return this.claim;
	}

	/**
	 * Return the store as one that keeps sequence numbers, which the start-up check guarantees
	 * for every operation that has them.
	 */
	SequencingIdempotencyStore sequencingStore() {
		if (this.store instanceof SequencingIdempotencyStore sequencing) {
			return sequencing;
		}
		throw new IllegalStateException("The idempotency store " + this.store.getClass().getName()
				+ " keeps no sequence numbers");
	}

	IdempotencyStore store() {
		return this.store;
	}

	IdempotencyTransactions transactions() {
		return this.transactions;
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
	 * Offer the response for storing, to be replayed from now on, as the execution's settlement
	 * writes it: with its own transaction, with its caller's, after its caller's commit, or at once.
	 * @param response the response
	 * @param failed whether the operation failed finally, so that its own writes must not commit
	 * @return how it ended
	 */
	public Completion complete(StoredResponse response, boolean failed) {
		begin();
		return this.settlement.complete(this, response, failed);
	}

	/**
	 * Store the response outside any transaction. A store whose client sends a command again when
	 * the reply to the first was lost with its connection (Lettuce does) can answer that the key
	 * is no longer held in progress because the first one stored it: the record then holds this
	 * claim's token, completed, which no take-over leaves behind.
	 */
	boolean storeOutside(StoredResponse response) {
		if (this.store.completeOutsideTransaction(key(), this.token, response, ttl())) {
			return true;
		}
		return this.store.find(key())
			.filter((record) -> record.status() == RecordStatus.COMPLETED && this.token.equals(record.token()))
			.isPresent();
	}

	/**
	 * As {@link #complete}, for a claim made without blocking: the response is stored at once,
	 * without blocking the calling thread.
	 * @param response the response
	 * @return how it ended
	 */
	CompletionStage<Completion> completeAsync(StoredResponse response) {
		begin();
		return immediate().completeAsync(this, response);
	}

	/**
	 * As {@link #storeOutside}, without blocking the calling thread.
	 */
	CompletionStage<Boolean> storeOutsideAsync(StoredResponse response) {
		NonBlockingIdempotencyStore store = IdempotencyEngine.nonBlocking(this.store);
		return store.completeAsync(key(), this.token, response, ttl())
			.thenCompose((stored) -> stored ? CompletableFuture.completedFuture(true)
					: store.findAsync(key())
						.thenApply((record) -> record
							.filter((found) -> found.status() == RecordStatus.COMPLETED
									&& this.token.equals(found.token()))
							.isPresent()));
	}

	/**
	 * As {@link #release(String)}, for a claim made without blocking, without blocking the calling
	 * thread.
	 * @param failure what failed, or {@code null} if not told
	 * @return completion once the key is released, or was found taken over
	 */
	CompletionStage<Void> releaseAsync(@Nullable String failure) {
		begin();
		stopHeartbeat();
		return releaseClaimAsync(failure).whenComplete((released, ex) -> end(Outcome.RELEASED))
			.thenApply((released) -> null);
	}

	/**
	 * As {@link #advanceSequence}, for a claim made without blocking: at once, as the claim.
	 * @param sequence the call's scope and number
	 * @return completion once the number is accepted; a stale number fails with
	 * {@link IdempotencyStaleSequenceException} and an unreachable store with
	 * {@link IdempotencyStoreUnavailableException}, the key given up in both cases
	 */
	CompletionStage<Void> advanceSequenceAsync(SequenceNumber sequence) {
		immediate();
		return IdempotencyEngine.nonBlocking(this.store)
			.advanceSequenceAsync(key().tenant(), sequence.scope(), sequence.number(), ttl())
			.handle((advance, failure) -> {
				if (failure != null) {
					Throwable cause = (failure instanceof CompletionException && failure.getCause() != null)
							? failure.getCause() : failure;
					return releaseAsync(FailureTypes.of(cause)).<Void>handle((released, ex) -> {
						throw IdempotencyEngine.unavailable(cause);
					});
				}
				if (advance.accepted()) {
					return CompletableFuture.<Void>completedFuture(null);
				}
				IdempotencyStaleSequenceException stale = new IdempotencyStaleSequenceException(sequence.number(),
						advance.highest());
				logger.debug("{} refused: sequence {} is below the highest, {}", key(), sequence.number(),
						advance.highest());
				begin();
				stopHeartbeat();
				return releaseClaimAsync(FailureTypes.of(stale))
					.whenComplete((released, ex) -> end(Outcome.STALE_SEQUENCE))
					.<Void>handle((released, ex) -> {
						throw new CompletionException(stale);
					});
			})
			.thenCompose((advanced) -> advanced);
	}

	private CompletionStage<Boolean> releaseClaimAsync(@Nullable String failure) {
		NonBlockingIdempotencyStore store = IdempotencyEngine.nonBlocking(this.store);
		return store.releaseAsync(key(), this.token, failure).whenComplete((released, ex) -> {
			if (ex != null) {
				logger.warn("Could not release {}; it frees when its lease runs out", key(), ex);
			}
			else {
				logger.debug("{} {}", key(), released ? "released" : "was taken over; not released");
			}
		});
	}

	private ImmediateSettlement immediate() {
		if (this.settlement instanceof ImmediateSettlement immediate) {
			return immediate;
		}
		throw new IllegalStateException(key() + " was claimed in a transaction: it cannot be settled without blocking");
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
		this.settlement.release(this, failure);
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
		SequenceAdvance advance;
		try {
			advance = this.settlement.advanceSequence(this, sequence);
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
	 * Give the key up for a call that is refused after its claim and never runs.
	 */
	private void refuse(String failure) {
		begin();
		stopHeartbeat();
		this.settlement.refuse(this, failure);
	}

	void endWithCaller(Outcome outcomeIfCommitted) {
		this.transactions.afterCallerCompletion(
				(committed) -> end(committed ? outcomeIfCommitted : Outcome.RELEASED));
	}

	void releaseClaim(@Nullable String failure) {
		boolean released = this.transactions.outside(() -> this.store.release(key(), this.token, failure));
		logger.debug("{} {}", key(), released ? "released" : "was taken over; not released");
	}

	void releaseQuietly(String failure) {
		try {
			releaseClaim(failure);
		}
		catch (RuntimeException ex) {
			logger.warn("Could not release {}; it frees when its lease runs out", key(), ex);
		}
	}

	Duration ttl() {
		return this.policy.ttl();
	}

	private void begin() {
		if (!this.finished.compareAndSet(false, true)) {
			throw new IllegalStateException(key() + " has already been completed or released");
		}
	}

	void stopHeartbeat() {
		LeaseHeartbeat.Beat beat = this.heartbeat;
		if (beat != null) {
			beat.stop();
		}
	}

	/**
	 * Report how the execution ended and wake the duplicates waiting for it in this instance,
	 * once its outcome is stored or committed, so that their next look finds it.
	 */
	void end(Outcome outcome) {
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
			if (!(Execution.this.store instanceof ReferencingIdempotencyStore store)) {
				throw new UnsupportedOperationException(
						"The idempotency store " + Execution.this.store.getClass().getName() + " keeps no references");
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
