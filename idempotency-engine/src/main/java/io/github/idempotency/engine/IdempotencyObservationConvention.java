package io.github.idempotency.engine;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

import io.github.idempotency.engine.IdempotencyObservationDocumentation.HighCardinalityKeys;
import io.github.idempotency.engine.IdempotencyObservationDocumentation.LowCardinalityKeys;

/**
 * Names the observation of a guarded call {@code idempotency.request} and tags it with bounded
 * values only.
 */
final class IdempotencyObservationConvention implements ObservationConvention<IdempotencyObservationContext> {

	static final String NAME = "idempotency.request";

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(IdempotencyObservationContext context) {
		return "idempotent " + context.operation();
	}

	/**
	 * The outcome is known once the call ends: the timer carries it, the long task timer of calls
	 * in flight does not.
	 */
	@Override
	public KeyValues getLowCardinalityKeyValues(IdempotencyObservationContext context) {
		KeyValues values = KeyValues.of(LowCardinalityKeys.OPERATION.withValue(context.operation()),
				LowCardinalityKeys.MODE.withValue(context.mode()));
		String outcome = context.outcome();
		return (outcome != null) ? values.and(LowCardinalityKeys.OUTCOME.withValue(outcome)) : values;
	}

	/**
	 * The hash of the key, and the attempt number of a call that runs.
	 */
	@Override
	public KeyValues getHighCardinalityKeyValues(IdempotencyObservationContext context) {
		String keyHash = context.keyHash();
		KeyValues values = (keyHash != null) ? KeyValues.of(HighCardinalityKeys.KEY_HASH.withValue(keyHash))
				: KeyValues.empty();
		int attempt = context.attempt();
		return (attempt > 0) ? values.and(HighCardinalityKeys.ATTEMPT.withValue(Integer.toString(attempt))) : values;
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof IdempotencyObservationContext;
	}

}
