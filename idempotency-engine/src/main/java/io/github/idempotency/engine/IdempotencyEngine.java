package io.github.idempotency.engine;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionStatus;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.IdempotencyListener;
import io.github.idempotency.IdempotencyRateLimitedException;
import io.github.idempotency.IdempotencyStoreUnavailableException;
import io.github.idempotency.Outcome;
import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.NonBlockingIdempotencyStore;
import io.github.idempotency.store.RecordStatus;

/**
 * Decides, for one request, whether to run it, replay a stored response, or refuse it; independent
 * of HTTP, so that web requests and bean methods share it.
 */
class IdempotencyEngine {

	private static final Logger logger = LoggerFactory.getLogger(IdempotencyEngine.class);

	private static final long FIRST_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	private static final long MAX_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

	private final IdempotencyStore store;

	private final IdempotencyListener listener;

	private final IdempotencyTransactions transactions;

	private final LeaseHeartbeat heartbeat;

	private final @Nullable KeySpaceGuard guard;

	private final @Nullable CachedReplays cachedReplays;

	private final Map<IdempotencyKey, CompletableFuture<Void>> running = new ConcurrentHashMap<>();

	private final ExecutionDurations durations = new ExecutionDurations();

	public IdempotencyEngine(IdempotencyStore store, IdempotencyListener listener,
			IdempotencyTransactions transactions, LeaseHeartbeat heartbeat) {
		this(store, listener, transactions, heartbeat, null);
	}

	/**
	 * Create an engine whose tenants' new keys and keys in flight are limited.
	 * @param store the store
	 * @param listener the listener
	 * @param transactions the transactions
	 * @param heartbeat the heartbeat of leases
	 * @param guard the limits, or {@code null} for none
	 */
	public IdempotencyEngine(IdempotencyStore store, IdempotencyListener listener,
			IdempotencyTransactions transactions, LeaseHeartbeat heartbeat, @Nullable KeySpaceGuard guard) {
		this(store, listener, transactions, heartbeat, guard, null);
	}

	IdempotencyEngine(IdempotencyStore store, IdempotencyListener listener, IdempotencyTransactions transactions,
			LeaseHeartbeat heartbeat, @Nullable KeySpaceGuard guard, @Nullable CachedReplays cachedReplays) {
		this.store = store;
		this.listener = listener;
		this.transactions = transactions;
		this.heartbeat = heartbeat;
		this.guard = guard;
		this.cachedReplays = cachedReplays;
	}

	/**
	 * Claim the key of a request, or decide how to answer it without running it. A duplicate of a
	 * request in progress waits up to the operation's {@code wait} for its result, without holding
	 * a database connection meanwhile.
	 * @param key the key
	 * @param fingerprint the request fingerprint
	 * @param policy the operation's settings
	 * @return the decision
	 * @throws IdempotencyStoreUnavailableException if the store cannot be reached
	 */
	public Decision begin(IdempotencyKey key, String fingerprint, OperationPolicy policy) {
		Decision cached = fromCache(key, fingerprint);
		if (cached != null) {
			return cached;
		}
		if (this.guard == null) {
			return decide(key, fingerprint, policy);
		}
		KeySpaceGuard.Permit permit = this.guard.tryAcquire(key.tenant());
		if (permit == null && isUnknown(key)) {
			return rateLimited(key);
		}
		Decision decision;
		try {
			decision = decide(key, fingerprint, policy);
		}
		catch (RuntimeException | Error ex) {
			// The store failed or the claim was refused before anything ran: every way out of a
			// permit gives it back, or the tenant is held at its limit until a restart.
			if (permit != null) {
				permit.refund();
			}
			throw ex;
		}
		if (!(decision instanceof Decision.Proceed proceed)) {
			if (permit != null) {
				permit.refund();
			}
			return decision;
		}
		if (permit == null) {
			// The key was known when looked at, but had expired by the claim: a new key after all.
			proceed.execution().release(IdempotencyRateLimitedException.class.getName());
			return rateLimited(key);
		}
		proceed.execution().onFinish(permit::close);
		return decision;
	}

	/**
	 * Return whether the store's claims and settlements can be awaited without holding a thread,
	 * so that {@link #beginAsync} may be used.
	 * @return whether the store is non-blocking
	 */
	boolean nonBlocking() {
		return this.store instanceof NonBlockingIdempotencyStore;
	}

	/**
	 * As {@link #begin}, for a LEASED call outside any transaction, on a non-blocking store,
	 * without blocking the calling thread: a duplicate's wait for the first request's result is a
	 * timer, not a sleeping thread.
	 * @param key the key
	 * @param fingerprint the request fingerprint
	 * @param policy the operation's settings, LEASED
	 * @return the decision, completed on the store's threads or the timer's
	 */
	CompletionStage<Decision> beginAsync(IdempotencyKey key, String fingerprint, OperationPolicy policy) {
		if (policy.mode() != IdempotencyMode.LEASED) {
			throw new IllegalStateException("Only a LEASED call is claimed without blocking, not " + key);
		}
		Decision cached = fromCache(key, fingerprint);
		if (cached != null) {
			return CompletableFuture.completedFuture(cached);
		}
		if (this.guard == null) {
			return decideAsync(key, fingerprint, policy);
		}
		KeySpaceGuard.Permit permit = this.guard.tryAcquire(key.tenant());
		CompletionStage<Boolean> limited = (permit != null) ? CompletableFuture.completedFuture(false)
				: nonBlocking(this.store).findAsync(key)
					.handle((record, failure) -> {
						if (failure != null) {
							throw unavailable(failure);
						}
						return record.filter((found) -> found.status() != RecordStatus.RELEASED).isEmpty();
					});
		return limited
			.thenCompose((unknown) -> unknown ? CompletableFuture.completedFuture(rateLimited(key))
					: decideAsync(key, fingerprint, policy))
			.handle((decision, failure) -> {
				if (failure != null) {
					if (permit != null) {
						permit.refund();
					}
					throw (failure instanceof CompletionException completion) ? completion
							: new CompletionException(failure);
				}
				return permitted(key, decision, permit);
			})
			.thenCompose((decision) -> decision);
	}

	/**
	 * Hand a guarded key's permit to its execution, or back when it did not run.
	 */
	private CompletionStage<Decision> permitted(IdempotencyKey key, Decision decision,
			KeySpaceGuard.@Nullable Permit permit) {
		if (!(decision instanceof Decision.Proceed proceed)) {
			if (permit != null) {
				permit.refund();
			}
			return CompletableFuture.completedFuture(decision);
		}
		if (permit == null) {
			// The key was known when looked at, but had expired by the claim: a new key after all.
			return proceed.execution()
				.releaseAsync(IdempotencyRateLimitedException.class.getName())
				.handle((released, failure) -> rateLimited(key));
		}
		proceed.execution().onFinish(permit::close);
		return CompletableFuture.completedFuture(decision);
	}

	private CompletionStage<Decision> decideAsync(IdempotencyKey key, String fingerprint, OperationPolicy policy) {
		ClaimRequest request = new ClaimRequest(key, fingerprint, policy.lease(), policy.ttl(), policy.archive());
		return attemptAsync(request, policy, System.nanoTime() + policy.maxWait().toNanos(), FIRST_POLL_NANOS);
	}

	private CompletionStage<Decision> attemptAsync(ClaimRequest request, OperationPolicy policy, long deadline,
			long pause) {
		IdempotencyKey key = request.key();
		return nonBlocking(this.store).claimAsync(request).handle((result, failure) -> {
			if (failure != null) {
				throw unavailable(failure);
			}
			return claimed(request, policy, result, null, null, ImmediateSettlement.INSTANCE);
		}).thenCompose((decision) -> {
			long remaining = deadline - System.nanoTime();
			if (!(decision instanceof Decision.InProgress) || remaining <= 0) {
				if (!(decision instanceof Decision.Proceed)) {
					logger.debug("{} answered without running: {}", key, decision);
					this.listener.onOutcome(key.operation(), outcomeOf(decision));
				}
				return CompletableFuture.completedFuture(decision);
			}
			return changeAsync(key, pause, remaining)
				.thenCompose((changed) -> attemptAsync(request, policy, deadline, Math.min(pause * 2, MAX_POLL_NANOS)));
		});
	}

	/**
	 * As {@link #awaitChange}, on a timer: completes when a request of the key running here
	 * finishes, or after the pause before the store is asked again.
	 */
	private CompletionStage<Void> changeAsync(IdempotencyKey key, long pause, long remaining) {
		CompletableFuture<Void> done = this.running.get(key);
		long delay = (done != null) ? remaining : Math.min(pause, remaining);
		CompletableFuture<Void> timer = CompletableFuture.runAsync(() -> {
		}, CompletableFuture.delayedExecutor(delay, TimeUnit.NANOSECONDS));
		return (done != null) ? done.applyToEither(timer, (ignored) -> null) : timer;
	}

	/**
	 * Return the store as one that is called without blocking.
	 * @param store the store
	 * @return it, cast
	 * @throws IllegalStateException if it cannot be called so
	 */
	static NonBlockingIdempotencyStore nonBlocking(IdempotencyStore store) {
		if (store instanceof NonBlockingIdempotencyStore nonBlocking) {
			return nonBlocking;
		}
		throw new IllegalStateException(
				"The idempotency store " + store.getClass().getName() + " cannot be called without blocking");
	}

	/**
	 * Translate a failure of the store's asynchronous call as its blocking call's would be.
	 */
	static CompletionException unavailable(Throwable failure) {
		Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
				: failure;
		if (cause instanceof DataAccessException) {
			return new CompletionException(new IdempotencyStoreUnavailableException(cause));
		}
		return (failure instanceof CompletionException completion) ? completion : new CompletionException(cause);
	}

	/**
	 * Answer a replay, or a mismatch, from a completed record this instance cached, if it holds one.
	 */
	private @Nullable Decision fromCache(IdempotencyKey key, String fingerprint) {
		IdempotencyRecord record = (this.cachedReplays != null) ? this.cachedReplays.find(key) : null;
		if (record == null) {
			return null;
		}
		Decision decision = Decision.of(new ClaimResult.Existing(record, Duration.ZERO), fingerprint, Duration.ZERO);
		logger.debug("{} answered from the replay cache: {}", key, decision);
		this.listener.onOutcome(key.operation(), outcomeOf(decision));
		return decision;
	}

	private Decision decide(IdempotencyKey key, String fingerprint, OperationPolicy policy) {
		ClaimRequest request = new ClaimRequest(key, fingerprint, policy.lease(), policy.ttl(), policy.archive());
		long deadline = System.nanoTime() + policy.maxWait().toNanos();
		long pause = FIRST_POLL_NANOS;
		while (true) {
			Decision decision = attempt(request, policy);
			long remaining = deadline - System.nanoTime();
			if (!(decision instanceof Decision.InProgress) || remaining <= 0
					|| !awaitChange(key, pause, remaining)) {
				if (!(decision instanceof Decision.Proceed)) {
					logger.debug("{} answered without running: {}", key, decision);
					this.listener.onOutcome(key.operation(), outcomeOf(decision));
				}
				return decision;
			}
			pause = Math.min(pause * 2, MAX_POLL_NANOS);
		}
	}

	/**
	 * Whether no record holds a key, as far as one read tells: a tenant at its limit is still
	 * answered replays, conflicts and mismatches of keys it already used.
	 */
	private boolean isUnknown(IdempotencyKey key) {
		try {
			return this.store.find(key).filter((record) -> record.status() != RecordStatus.RELEASED).isEmpty();
		}
		catch (DataAccessException ex) {
			throw new IdempotencyStoreUnavailableException(ex);
		}
	}

	private Decision rateLimited(IdempotencyKey key) {
		logger.debug("{} refused: its tenant is at its limit of new keys", key);
		this.listener.onOutcome(key.operation(), Outcome.RATE_LIMITED);
		return new Decision.RateLimited(this.guard.retryAfter(key.tenant()));
	}

	/**
	 * Report a request refused because its key was missing or malformed.
	 * @param operation the operation name
	 */
	public void reportMissingKey(String operation) {
		this.listener.onOutcome(operation, Outcome.MISSING_KEY);
	}

	private Decision attempt(ClaimRequest request, OperationPolicy policy) {
		TransactionStatus transaction = null;
		CompletableFuture<Void> turn = null;
		ClaimResult result;
		try {
			if (policy.mode() == IdempotencyMode.ATOMIC) {
				turn = takeTurn(request.key(), policy.lease());
				transaction = this.transactions.begin();
				result = this.store.claim(request.insideTransaction());
			}
			else {
				result = this.transactions.outside(() -> this.store.claim(request));
			}
		}
		catch (PessimisticLockingFailureException ex) {
			// The database gave up waiting for the lock of an ATOMIC claim of this key that has not
			// committed yet (another instance's, or one that outlived the wait here): in progress.
			rollbackQuietly(transaction);
			endTurn(request.key(), turn);
			logger.debug("{} is locked by a claim in progress: {}", request.key(), ex.toString());
			return new Decision.InProgress(this.durations.usual(request.key().operation()));
		}
		catch (DataAccessException | CannotCreateTransactionException ex) {
			rollbackQuietly(transaction);
			endTurn(request.key(), turn);
			throw new IdempotencyStoreUnavailableException(ex);
		}
		catch (RuntimeException | Error ex) {
			rollbackQuietly(transaction);
			endTurn(request.key(), turn);
			throw ex;
		}
		return claimed(request, policy, result, transaction, turn,
				(result instanceof ClaimResult.Claimed) ? Settlement.of(policy.mode(), transaction, this.transactions)
						: null);
	}

	/**
	 * Decide on what a claim answered: run the claimed call with its settlement, or answer from the
	 * record that held the key.
	 */
	private Decision claimed(ClaimRequest request, OperationPolicy policy, ClaimResult result,
			@Nullable TransactionStatus transaction, @Nullable CompletableFuture<Void> turn,
			@Nullable Settlement settlement) {
		if (result instanceof ClaimResult.Claimed claimed) {
			return new Decision.Proceed(started(request, policy, claimed, settlement, turn));
		}
		ClaimResult.Existing existing = (ClaimResult.Existing) result;
		// Only what the store has committed is cached: a claim in a caller's transaction could see
		// that transaction's own completion, which its rollback would undo.
		if (this.cachedReplays != null && this.transactions.sawOnlyCommitted(transaction)) {
			this.cachedReplays.put(existing.record());
		}
		if (transaction != null) {
			this.transactions.endUnusedClaim(transaction);
		}
		endTurn(request.key(), turn);
		return Decision.of(existing, request.fingerprint(), this.durations.retryAfter(existing));
	}

	private Execution started(ClaimRequest request, OperationPolicy policy, ClaimResult.Claimed claimed,
			Settlement settlement, @Nullable CompletableFuture<Void> turn) {
		IdempotencyKey key = request.key();
		logger.debug("{} claimed{}", key, claimed.takenOver() ? " after its lease ran out" : "");
		this.listener.onExecutionStarted(key.operation(), claimed.takenOver());
		Execution execution = new Execution(this.store, this.transactions, this.listener, request, claimed, policy,
				settlement);
		CompletableFuture<Void> done = (turn != null) ? turn : new CompletableFuture<>();
		if (turn == null) {
			this.running.put(key, done);
		}
		long started = System.nanoTime();
		execution.onFinish(() -> {
			this.durations.record(key.operation(), Duration.ofNanos(System.nanoTime() - started));
			this.running.remove(key, done);
			done.complete(null);
		});
		if (!settlement.holdsByTransaction()) {
			execution.heartbeat(this.heartbeat.start(key, claimed.token(), policy.lease()));
		}
		return execution;
	}

	/**
	 * Take this JVM's turn at claiming an ATOMIC key: a duplicate of a claim or request of this
	 * key under way here waits for it here rather than on the database, where it would hold a
	 * pooled connection, and could time out on the row lock, for as long as the first request
	 * runs; so at most one request per key and instance waits on the database.
	 * @return the turn, to end when the claim ends, or {@code null} if the wait outlived the lease
	 * and the request goes to the database without one
	 */
	private @Nullable CompletableFuture<Void> takeTurn(IdempotencyKey key, Duration limit) {
		CompletableFuture<Void> turn = new CompletableFuture<>();
		long deadline = System.nanoTime() + limit.toNanos();
		while (true) {
			CompletableFuture<Void> ahead = this.running.putIfAbsent(key, turn);
			if (ahead == null) {
				return turn;
			}
			try {
				ahead.get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
			}
			catch (ExecutionException ex) {
				// Its claim failed: take the turn.
			}
			catch (TimeoutException ex) {
				return null;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return null;
			}
		}
	}

	private void endTurn(IdempotencyKey key, @Nullable CompletableFuture<Void> turn) {
		if (turn != null) {
			this.running.remove(key, turn);
			turn.complete(null);
		}
	}

	/**
	 * Wait until a request running in this JVM finishes, which wakes its duplicates once its
	 * outcome is stored; or, when the key is held elsewhere, for the pause before the store is
	 * asked again. Returns {@code false} if the waiting thread was interrupted.
	 */
	private boolean awaitChange(IdempotencyKey key, long pause, long remaining) {
		CompletableFuture<Void> done = this.running.get(key);
		try {
			if (done != null) {
				done.get(remaining, TimeUnit.NANOSECONDS);
			}
			else {
				TimeUnit.NANOSECONDS.sleep(Math.min(pause, remaining));
			}
			return true;
		}
		catch (TimeoutException | ExecutionException ex) {
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private void rollbackQuietly(TransactionStatus transaction) {
		if (transaction != null) {
			try {
				this.transactions.rollback(transaction);
			}
			catch (RuntimeException ex) {
				logger.debug("Could not roll back a claim transaction", ex);
			}
		}
	}

	static Outcome outcomeOf(Decision decision) {
		if (decision instanceof Decision.Replay) {
			return Outcome.REPLAYED;
		}
		if (decision instanceof Decision.RateLimited) {
			return Outcome.RATE_LIMITED;
		}
		return (decision instanceof Decision.Mismatch) ? Outcome.MISMATCH : Outcome.CONFLICT;
	}

}
