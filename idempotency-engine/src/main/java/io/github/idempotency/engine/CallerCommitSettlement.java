package io.github.idempotency.engine;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.idempotency.store.FailureTypes;
import io.github.idempotency.Outcome;
import io.github.idempotency.store.StoredResponse;

/**
 * LEASED inside a caller's transaction on the store's own data source: the claim committed at once,
 * outside it; the completion is written in the caller's transaction and commits with it, and its
 * rollback releases the key.
 */
final class CallerCommitSettlement extends LeasedSettlement {

	static final CallerCommitSettlement INSTANCE = new CallerCommitSettlement();

	private static final Logger logger = LoggerFactory.getLogger(CallerCommitSettlement.class);

	private CallerCommitSettlement() {
	}

	@Override
	public Completion complete(Execution execution, StoredResponse response, boolean failed) {
		execution.stopHeartbeat();
		boolean stored;
		try {
			stored = execution.store().complete(execution.key(), execution.token(), response, execution.ttl());
		}
		catch (RuntimeException ex) {
			execution.releaseQuietly(FailureTypes.of(ex));
			execution.end(Outcome.RELEASED);
			throw ex;
		}
		if (!stored) {
			execution.end(Outcome.TAKEN_OVER);
			return Completion.TAKEN_OVER;
		}
		execution.transactions().afterCallerCompletion((committed) -> {
			Outcome outcome = Outcome.EXECUTED;
			try {
				if (!committed) {
					outcome = Outcome.RELEASED;
					execution.releaseClaim(FailureTypes.CALLER_ROLLED_BACK);
				}
			}
			catch (RuntimeException ex) {
				logger.warn("Could not release {} after its caller's transaction rolled back; it frees when its lease "
						+ "runs out", execution.key(), ex);
			}
			finally {
				execution.end(outcome);
			}
		});
		return Completion.STORED;
	}

}
