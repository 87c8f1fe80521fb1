package io.github.idempotency.engine;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.idempotency.store.FailureTypes;
import io.github.idempotency.Outcome;
import io.github.idempotency.store.StoredResponse;

/**
 * LEASED inside a caller's transaction on another resource than the store: the response is stored
 * once the caller has committed, its lease renewed until then; a rollback releases the key.
 */
final class AfterCallerCommitSettlement extends LeasedSettlement {

	static final AfterCallerCommitSettlement INSTANCE = new AfterCallerCommitSettlement();

	private static final Logger logger = LoggerFactory.getLogger(AfterCallerCommitSettlement.class);

	private AfterCallerCommitSettlement() {
	}

	@Override
	public Completion complete(Execution execution, StoredResponse response, boolean failed) {
		execution.transactions().afterCallerCompletion((committed) -> {
			Outcome outcome = Outcome.RELEASED;
			execution.stopHeartbeat();
			try {
				if (committed) {
					outcome = execution.transactions().outside(() -> execution.storeOutside(response))
							? Outcome.EXECUTED : Outcome.TAKEN_OVER;
				}
				else {
					execution.releaseClaim(FailureTypes.CALLER_ROLLED_BACK);
				}
			}
			catch (RuntimeException ex) {
				logger.warn("Could not {} {} after its caller's transaction ended; it frees when its lease runs out",
						committed ? "complete" : "release", execution.key(), ex);
			}
			finally {
				execution.end(outcome);
			}
		});
		return Completion.STORED;
	}

}
