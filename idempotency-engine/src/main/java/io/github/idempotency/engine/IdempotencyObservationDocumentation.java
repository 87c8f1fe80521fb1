package io.github.idempotency.engine;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observation of a guarded call: a timer and a trace span per call, with its operation, mode
 * and outcome as low-cardinality keys and the hash of its key as a high-cardinality one.
 */
enum IdempotencyObservationDocumentation implements ObservationDocumentation {

	/**
	 * One guarded call, from its claim (or its answer without running) to its stored or released
	 * result.
	 */
	REQUEST {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return IdempotencyObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return LowCardinalityKeys.values();
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return HighCardinalityKeys.values();
		}

		@Override
		public Observation.Event[] getEvents() {
			return Events.values();
		}

	};

	enum LowCardinalityKeys implements KeyName {

		/**
		 * The operation name.
		 */
		OPERATION {
			@Override
			public String asString() {
				return "operation";
			}
		},

		/**
		 * How the call ended, as the {@code outcome} tag of {@code idempotency.requests}, or
		 * {@code error} when it failed before any decision; absent while it runs.
		 */
		OUTCOME {
			@Override
			public String asString() {
				return "outcome";
			}
		},

		/**
		 * The crash-safety mode, {@code leased} or {@code atomic}.
		 */
		MODE {
			@Override
			public String asString() {
				return "mode";
			}
		}

	}

	enum HighCardinalityKeys implements KeyName {

		/**
		 * A short hash of the tenant and key, never the raw key.
		 */
		KEY_HASH {
			@Override
			public String asString() {
				return "idempotency.key.hash";
			}
		},

		/**
		 * Which run of the key's operation a call that runs is: 1 for the first, one more for
		 * each run after a transient failure or a lease that ran out; absent for a call that does
		 * not run.
		 */
		ATTEMPT {
			@Override
			public String asString() {
				return "idempotency.attempt";
			}
		}

	}

	enum Events implements Observation.Event {

		/**
		 * The key was claimed and the operation runs.
		 */
		CLAIMED {
			@Override
			public String getName() {
				return "claimed";
			}
		},

		/**
		 * The operation ended and its result was stored, released or lost to a takeover.
		 */
		FINISHED {
			@Override
			public String getName() {
				return "finished";
			}
		}

	}

}
