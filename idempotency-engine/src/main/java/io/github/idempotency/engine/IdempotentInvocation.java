package io.github.idempotency.engine;

import io.github.idempotency.KeyHashes;
import io.github.idempotency.MissingIdempotencyKeyException;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;

import io.github.idempotency.IdempotencyContext;
import io.github.idempotency.IdempotencyException;
import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.Outcome;
import io.github.idempotency.RequestFingerprinter;
import io.github.idempotency.TenantResolver;

/**
 * The one flow of an idempotent call, whichever entry point it comes through: key, MDC, scope,
 * policy, fingerprint, claim; then run the call, or answer it with a replay or a refusal. Each
 * entry point feeds it a {@link CallAdapter} that knows its key, its fingerprint, how to run it
 * and how to render an answer.
 */
public final class IdempotentInvocation {

	private final IdempotencyEngine engine;

	private final OperationPolicies policies;

	private final TenantResolver tenantResolver;

	private final RequestFingerprinter fingerprinter;

	private final ObservationRegistry observations;

	public IdempotentInvocation(IdempotencyEngine engine, OperationPolicies policies, TenantResolver tenantResolver,
			RequestFingerprinter fingerprinter, ObservationRegistry observations) {
		this.engine = engine;
		this.policies = policies;
		this.tenantResolver = tenantResolver;
		this.fingerprinter = fingerprinter;
		this.observations = observations;
	}

	/**
	 * Run a call under idempotency protection, observed from its key to its outcome: claim its
	 * key and run it, or answer it through its entry point with a replay or a refusal.
	 * @param <R> what the call returns
	 * @param adapter the call, as its entry point sees it
	 * @return what the call returned, the replay of what an earlier call with its key returned,
	 * or what its entry point answers a refusal with
	 * @throws Throwable what the call threw, or a refusal its entry point throws
	 */
	public <R> @Nullable R invoke(CallAdapter<R> adapter) throws Throwable {
		Guarded<R> guarded = new Guarded<>(adapter);
		if (!guarded.start()) {
			return guarded.unguarded();
		}
		Decision decision;
		try {
			guarded.scope();
			decision = this.engine.begin(guarded.key, guarded.fingerprint, guarded.policy);
			guarded.observe(decision);
			Execution execution = guarded.execution;
			if (execution != null && guarded.sequence != null) {
				// After the claim: a duplicate of a processed number is answered as one.
				execution.advanceSequence(guarded.sequence);
			}
		}
		catch (IdempotencyException ex) {
			return guarded.refused(ex);
		}
		catch (Throwable ex) {
			guarded.failed(ex);
			throw ex;
		}
		// Outside the refusals above: an entry point may answer a replay or a refusal by throwing.
		return guarded.run(decision);
	}

	/**
	 * Return whether the store can be called without blocking, so that a LEASED call outside any
	 * transaction may be invoked with {@link #invokeAsync}.
	 * @return whether the store is non-blocking
	 */
	public boolean nonBlocking() {
		return this.engine.nonBlocking();
	}

	/**
	 * As {@link #invoke}, for a LEASED call outside any transaction on a {@link #nonBlocking()}
	 * store, without blocking the calling thread: what comes before the claim runs on it, the rest
	 * (running the call, or answering it) on the given executor, with the call's logging context.
	 * @param <R> what the call returns
	 * @param adapter the call, as its entry point sees it
	 * @param continuation where the call runs, or is answered, once its key is claimed or refused
	 * @return what {@link #invoke} would return, or what it would throw
	 */
	public <R> CompletionStage<@Nullable R> invokeAsync(CallAdapter<R> adapter, Executor continuation) {
		Guarded<R> guarded = new Guarded<>(adapter);
		try {
			if (!guarded.start()) {
				return CompletableFuture.completedFuture(guarded.unguarded());
			}
			guarded.scope();
		}
		catch (IdempotencyException ex) {
			return CompletableFuture.completedFuture(guarded.refused(ex));
		}
		catch (Throwable ex) {
			guarded.failed(ex);
			return CompletableFuture.failedFuture(ex);
		}
		Map<String, String> diagnosticContext = IdempotencyMdc.entries();
		return this.engine.beginAsync(guarded.key, guarded.fingerprint, guarded.policy).thenCompose((decision) -> {
			guarded.observe(decision);
			Execution execution = guarded.execution;
			if (execution == null || guarded.sequence == null) {
				return CompletableFuture.completedFuture(decision);
			}
			return execution.advanceSequenceAsync(guarded.sequence).thenApply((advanced) -> decision);
		}).handleAsync((decision, failure) -> {
			IdempotencyMdc.clear();
			diagnosticContext.forEach(MDC::put);
			try {
				if (failure == null) {
					return guarded.run(decision);
				}
				Throwable cause = (failure instanceof CompletionException && failure.getCause() != null)
						? failure.getCause() : failure;
				if (cause instanceof IdempotencyException refusal) {
					return guarded.refused(refusal);
				}
				guarded.failed(cause);
				throw cause;
			}
			catch (Throwable ex) {
				throw (ex instanceof CompletionException completion) ? completion : new CompletionException(ex);
			}
			finally {
				IdempotencyMdc.clear();
			}
		}, continuation);
	}

	private void refuseMissingKey(IdempotencyObservationContext observed) {
		this.engine.reportMissingKey(observed.operation());
		observed.outcome(Outcome.MISSING_KEY.tag());
		observation(observed).start().stop();
	}

	private Observation observation(IdempotencyObservationContext context) {
		return IdempotencyObservationDocumentation.REQUEST.observation(null, new IdempotencyObservationConvention(),
				() -> context, this.observations);
	}

	/**
	 * Return what calls put in the logging context of the current thread, for an entry point
	 * that carries it to the threads a call's work runs on.
	 * @return the entries, by name; empty when there are none
	 */
	public static Map<String, String> diagnosticContext() {
		return IdempotencyMdc.entries();
	}

	/**
	 * Remove what calls put in the logging context of the current thread, for an entry point
	 * that ends a request on it.
	 */
	public static void clearDiagnosticContext() {
		IdempotencyMdc.clear();
	}


	/**
	 * One call on its way through the flow: what was learnt of it before its claim, and its
	 * execution once claimed.
	 */
	private final class Guarded<R> {

		private final CallAdapter<R> adapter;

		private final IdempotentCall call;

		private final String operation;

		private final OperationPolicy policy;

		private final IdempotencyObservationContext observed;

		private @Nullable IdempotencyException missingKey;

		private @Nullable Observation observation;

		private String rawKey;

		private IdempotencyKey key;

		private String fingerprint;

		private @Nullable SequenceNumber sequence;

		private @Nullable Execution execution;

		Guarded(CallAdapter<R> adapter) {
			this.adapter = adapter;
			this.call = new IdempotentCall(adapter.mismatchDetail());
			this.operation = adapter.operation();
			IdempotencyMdc.putOperation(this.operation);
			this.policy = IdempotentInvocation.this.policies.policyFor(this.operation, adapter.mode());
			this.observed = new IdempotencyObservationContext(this.operation,
					this.policy.mode().name().toLowerCase(Locale.ROOT));
		}

		/**
		 * Read the call's key and start its observation.
		 * @return {@code false} if the call goes unguarded, or is refused for its key
		 */
		boolean start() {
			String raw;
			try {
				raw = this.adapter.key();
				if (raw == null && this.adapter.required()) {
					throw new MissingIdempotencyKeyException(this.adapter.missingKeyDetail());
				}
			}
			catch (IdempotencyException ex) {
				refuseMissingKey(this.observed);
				this.missingKey = ex;
				return false;
			}
			if (raw == null) {
				return false;
			}
			String keyHash = KeyHashes.shortHash(raw);
			IdempotencyMdc.putKeyHash(keyHash);
			this.observed.keyHash(keyHash);
			this.observation = IdempotentInvocation.this.observation(this.observed).start();
			this.rawKey = raw;
			return true;
		}

		/**
		 * Answer a call that is not claimed: refused for its key, or run without a key.
		 */
		@Nullable R unguarded() throws Throwable {
			IdempotencyException refusal = this.missingKey;
			if (refusal != null) {
				this.call.refused();
				return this.adapter.refuse(refusal);
			}
			return this.adapter.proceedUnguarded();
		}

		/**
		 * Scope the key to its tenant and read the call's fingerprint and sequence number.
		 */
		void scope() throws Throwable {
			this.key = new IdempotencyKey(IdempotentInvocation.this.tenantResolver.resolveTenant(), this.operation,
					this.rawKey);
			this.adapter.accept(this.policy);
			this.fingerprint = IdempotentInvocation.this.fingerprinter
				.fingerprint(this.adapter.fingerprint(this.operation));
			this.sequence = this.adapter.sequence();
		}

		/**
		 * Note what the engine decided: a claimed execution owns the observation from here on.
		 */
		void observe(Decision decision) {
			if (decision instanceof Decision.Proceed proceed) {
				Execution claimed = proceed.execution();
				this.execution = claimed;
				this.observed.attempt(claimed.attempt());
				claimed.observe(started(), this.observed);
				started().event(IdempotencyObservationDocumentation.Events.CLAIMED);
			}
			else {
				this.observed.outcome(IdempotencyEngine.outcomeOf(decision).tag());
			}
		}

		/**
		 * Run the claimed call, or answer it with a replay or a refusal.
		 */
		@Nullable R run(Decision decision) throws Throwable {
			Execution claimed = this.execution;
			if (claimed == null) {
				started().stop();
				Answer answer = Answer.of(decision, this.adapter.mismatchDetail());
				if (answer instanceof Answer.Replay replay) {
					this.call.replayed();
					return this.adapter.replay(replay.response());
				}
				this.call.refused();
				return this.adapter.refuse(((Answer.Refuse) answer).refusal());
			}
			this.call.claimed(claimed);
			try (Observation.Scope scope = started().openScope();
					IdempotencyContext.Scope context = IdempotencyContext.open(claimed.context())) {
				return this.adapter.run(this.call);
			}
		}

		@Nullable R refused(IdempotencyException refusal) {
			stopUnlessOwned(refusal);
			this.call.refused();
			return this.adapter.refuse(refusal);
		}

		void failed(Throwable failure) {
			stopUnlessOwned(failure);
		}

		private void stopUnlessOwned(Throwable failure) {
			Observation started = this.observation;
			if (this.execution != null || started == null) {
				return;
			}
			if (this.observed.outcome() == null) {
				this.observed.outcome(IdempotencyObservationContext.ERROR);
				started.error(failure);
			}
			started.stop();
		}

		private Observation started() {
			Observation started = this.observation;
			if (started == null) {
				throw new IllegalStateException("The call of " + this.operation + " has no key");
			}
			return started;
		}

	}

}
