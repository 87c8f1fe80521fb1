package io.github.idempotency.internal.engine;

import java.util.Locale;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import io.github.idempotency.FingerprintRequest;
import io.github.idempotency.IdempotencyContext;
import io.github.idempotency.IdempotencyException;
import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.IdempotencyKeyInProgressException;
import io.github.idempotency.IdempotencyKeyMismatchException;
import io.github.idempotency.Outcome;
import io.github.idempotency.RequestFingerprinter;
import io.github.idempotency.TenantResolver;
import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.store.StoredResponse;

/**
 * The one flow of an idempotent call, whichever entry point it comes through: key, MDC, scope,
 * policy, fingerprint, claim; then run the call, or answer it with a replay or a refusal. Each
 * entry point feeds it a {@link Call} that knows its key, its fingerprint, how to run it and how
 * to render a replay.
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
	 * Run a call under idempotency protection, observed from its key to its outcome.
	 * @param <R> what the call returns
	 * @param call the call
	 * @return what the call returned, or the replay of what an earlier call with its key returned
	 * @throws Throwable what the call threw, or an {@link IdempotencyException} refusing it
	 */
	public <R> @Nullable R invoke(Call<R> call) throws Throwable {
		String operation = call.operation();
		IdempotencyMdc.putOperation(operation);
		OperationPolicy policy = this.policies.policyFor(operation, call.mode());
		IdempotencyObservationContext observed = new IdempotencyObservationContext(operation,
				policy.mode().name().toLowerCase(Locale.ROOT));
		String key;
		try {
			key = call.key();
		}
		catch (IdempotencyException ex) {
			refuseMissingKey(observed);
			throw ex;
		}
		if (key == null) {
			if (!call.required()) {
				return call.proceedUnguarded();
			}
			refuseMissingKey(observed);
			throw new MissingIdempotencyKeyException(call.missingKeyDetail());
		}
		String keyHash = KeyHashes.shortHash(key);
		IdempotencyMdc.putKeyHash(keyHash);
		observed.keyHash(keyHash);
		Observation observation = observation(observed).start();
		boolean executing = false;
		try {
			IdempotencyKey scopedKey = new IdempotencyKey(this.tenantResolver.resolveTenant(), operation, key);
			call.accept(policy);
			String fingerprint = this.fingerprinter.fingerprint(call.fingerprint(operation));
			SequenceNumber sequence = call.sequence();
			Decision decision = this.engine.begin(scopedKey, fingerprint, policy);
			if (decision instanceof Decision.Proceed proceed) {
				Execution execution = proceed.execution();
				observed.attempt(execution.attempt());
				execution.observe(observation, observed);
				executing = true;
				observation.event(IdempotencyObservationDocumentation.Events.CLAIMED);
				if (sequence != null) {
					// After the claim: a duplicate of a processed number is answered as one.
					execution.advanceSequence(sequence);
				}
				try (Observation.Scope scope = observation.openScope();
						IdempotencyContext.Scope context = IdempotencyContext.open(execution.context())) {
					return call.proceed(execution);
				}
			}
			observed.outcome(IdempotencyEngine.outcomeOf(decision).tag());
			return answer(decision, call);
		}
		catch (Throwable ex) {
			if (!executing && observed.outcome() == null) {
				observed.outcome(IdempotencyObservationContext.ERROR);
				observation.error(ex);
			}
			throw ex;
		}
		finally {
			if (!executing) {
				observation.stop();
			}
		}
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
	 * Answer a call without running it.
	 * @param <R> what the call returns
	 * @param decision a replay, in progress or a mismatch
	 * @param call the call
	 * @return the replay
	 */
	public static <R> @Nullable R answer(Decision decision, Call<R> call) {
		if (decision instanceof Decision.Replay replay) {
			return call.replay(replay.response());
		}
		if (decision instanceof Decision.InProgress inProgress) {
			throw new IdempotencyKeyInProgressException(inProgress.retryAfter());
		}
		if (decision instanceof Decision.RateLimited rateLimited) {
			throw new IdempotencyRateLimitedException(rateLimited.retryAfter());
		}
		throw new IdempotencyKeyMismatchException(call.mismatchDetail());
	}

	/**
	 * One call of an idempotent operation, as its entry point sees it.
	 *
	 * @param <R> what the call returns
	 */
	public interface Call<R> {

		/**
		 * Return the operation name.
		 * @return the name
		 */
		String operation();

		/**
		 * Return the idempotency key of the call.
		 * @return the key, or {@code null} if the call has none
		 * @throws IdempotencyException if the key is malformed
		 */
		@Nullable String key();

		/**
		 * Return whether a key is required.
		 * @return whether a call without a key is refused
		 */
		boolean required();

		/**
		 * Return the mode the annotation asks for.
		 * @return the mode, or {@code null} for the operation's setting
		 */
		@Nullable IdempotencyMode mode();

		/**
		 * Check that the call can run under the operation's policy, before anything is claimed.
		 * @param policy the policy
		 */
		default void accept(OperationPolicy policy) {
		}

		/**
		 * Return what identifies the call for its fingerprint.
		 * @param operation the operation name
		 * @return the request to fingerprint
		 * @throws Exception if the request cannot be read
		 */
		FingerprintRequest fingerprint(String operation) throws Exception;

		/**
		 * Return the scope and sequence number of the call, for an operation that orders its
		 * calls by one.
		 * @return the sequence number, or {@code null} if the operation has none
		 * @throws InvalidSequenceException if the call yields no valid scope or number
		 */
		default @Nullable SequenceNumber sequence() {
			return null;
		}

		/**
		 * Run the call without idempotency protection, as it has no key and needs none.
		 * @return what it returned
		 * @throws Throwable what it threw
		 */
		@Nullable R proceedUnguarded() throws Throwable;

		/**
		 * Run the call for a claimed key, with its context open; the entry point completes or
		 * releases the execution, now or once the call's result is known.
		 * @param execution the claimed execution
		 * @return what the call returned
		 * @throws Throwable what the call threw
		 */
		@Nullable R proceed(Execution execution) throws Throwable;

		/**
		 * Render the stored result of an earlier call with the same key.
		 * @param stored the stored response
		 * @return what the call returns instead of running
		 */
		@Nullable R replay(StoredResponse stored);

		/**
		 * Return what to tell a caller without a key.
		 * @return the detail of the problem
		 */
		String missingKeyDetail();

		/**
		 * Return what to tell a caller that reused a key.
		 * @return the detail of the problem
		 */
		String mismatchDetail();

	}

}
