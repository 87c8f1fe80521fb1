package io.github.idempotency.engine;

import io.github.idempotency.KeyHashes;
import io.github.idempotency.MissingIdempotencyKeyException;

import java.util.Locale;
import java.util.Map;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

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
		IdempotentCall call = new IdempotentCall(adapter.mismatchDetail());
		String operation = adapter.operation();
		IdempotencyMdc.putOperation(operation);
		OperationPolicy policy = this.policies.policyFor(operation, adapter.mode());
		IdempotencyObservationContext observed = new IdempotencyObservationContext(operation,
				policy.mode().name().toLowerCase(Locale.ROOT));
		String key;
		try {
			key = adapter.key();
			if (key == null && adapter.required()) {
				throw new MissingIdempotencyKeyException(adapter.missingKeyDetail());
			}
		}
		catch (IdempotencyException ex) {
			refuseMissingKey(observed);
			call.refused();
			return adapter.refuse(ex);
		}
		if (key == null) {
			return adapter.proceedUnguarded();
		}
		String keyHash = KeyHashes.shortHash(key);
		IdempotencyMdc.putKeyHash(keyHash);
		observed.keyHash(keyHash);
		Observation observation = observation(observed).start();
		Execution execution = null;
		Decision decision;
		try {
			IdempotencyKey scopedKey = new IdempotencyKey(this.tenantResolver.resolveTenant(), operation, key);
			adapter.accept(policy);
			String fingerprint = this.fingerprinter.fingerprint(adapter.fingerprint(operation));
			SequenceNumber sequence = adapter.sequence();
			decision = this.engine.begin(scopedKey, fingerprint, policy);
			if (decision instanceof Decision.Proceed proceed) {
				execution = proceed.execution();
				observed.attempt(execution.attempt());
				// From here on the execution stops the observation when it ends.
				execution.observe(observation, observed);
				observation.event(IdempotencyObservationDocumentation.Events.CLAIMED);
				if (sequence != null) {
					// After the claim: a duplicate of a processed number is answered as one.
					execution.advanceSequence(sequence);
				}
				call.claimed(execution);
			}
			else {
				observed.outcome(IdempotencyEngine.outcomeOf(decision).tag());
			}
		}
		catch (IdempotencyException ex) {
			stopUnlessOwned(execution, observation, observed, ex);
			call.refused();
			return adapter.refuse(ex);
		}
		catch (Throwable ex) {
			stopUnlessOwned(execution, observation, observed, ex);
			throw ex;
		}
		if (execution == null) {
			observation.stop();
			return answer(call, adapter, decision);
		}
		try (Observation.Scope scope = observation.openScope();
				IdempotencyContext.Scope context = IdempotencyContext.open(execution.context())) {
			return adapter.run(call);
		}
	}

	private static void stopUnlessOwned(@Nullable Execution execution, Observation observation,
			IdempotencyObservationContext observed, Throwable failure) {
		if (execution != null) {
			return;
		}
		if (observed.outcome() == null) {
			observed.outcome(IdempotencyObservationContext.ERROR);
			observation.error(failure);
		}
		observation.stop();
	}

	private static <R> @Nullable R answer(IdempotentCall call, CallAdapter<R> adapter, Decision decision) {
		Answer answer = Answer.of(decision, adapter.mismatchDetail());
		if (answer instanceof Answer.Replay replay) {
			call.replayed();
			return adapter.replay(replay.response());
		}
		call.refused();
		return adapter.refuse(((Answer.Refuse) answer).refusal());
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

}
