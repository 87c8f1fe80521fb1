package io.github.idempotency.engine;

import java.util.concurrent.CompletionStage;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.idempotency.Outcome;
import io.github.idempotency.store.StoredResponse;

/**
 * LEASED with no transaction around the call: the response is stored, or the key released, at
 * once, each a write of its own.
 */
final class ImmediateSettlement extends LeasedSettlement {

	static final ImmediateSettlement INSTANCE = new ImmediateSettlement();

	private static final Logger logger = LoggerFactory.getLogger(ImmediateSettlement.class);

	private ImmediateSettlement() {
	}

	@Override
	public Completion complete(Execution execution, StoredResponse response, boolean failed) {
		execution.stopHeartbeat();
		boolean stored = false;
		try {
			stored = execution.transactions().outside(() -> execution.storeOutside(response));
			logger.debug("{} {} with status {}", execution.key(),
					stored ? "completed" : "was taken over; not completed", response.status());
		}
		finally {
			execution.end(stored ? Outcome.EXECUTED : Outcome.TAKEN_OVER);
		}
		return stored ? Completion.STORED : Completion.TAKEN_OVER;
	}

	/**
	 * As {@link #complete}, without blocking the calling thread, on a non-blocking store.
	 * @param execution the execution
	 * @param response the response
	 * @return how it ended
	 */
	CompletionStage<Completion> completeAsync(Execution execution, StoredResponse response) {
		execution.stopHeartbeat();
		return execution.storeOutsideAsync(response).whenComplete((stored, failure) -> {
			boolean completed = Boolean.TRUE.equals(stored);
			if (failure == null) {
				logger.debug("{} {} with status {}", execution.key(),
						completed ? "completed" : "was taken over; not completed", response.status());
			}
			execution.end(completed ? Outcome.EXECUTED : Outcome.TAKEN_OVER);
		}).thenApply((stored) -> stored ? Completion.STORED : Completion.TAKEN_OVER);
	}

}
