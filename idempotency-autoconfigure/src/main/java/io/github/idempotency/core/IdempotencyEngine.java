package io.github.idempotency.core;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.IdempotencyStore;

/**
 * Decides, for one request, whether to run it, replay a stored response, or refuse it; independent
 * of HTTP, so that web requests and bean methods share it.
 */
public class IdempotencyEngine {

	private static final Logger logger = LoggerFactory.getLogger(IdempotencyEngine.class);

	private final IdempotencyStore store;

	private final IdempotencyListener listener;

	public IdempotencyEngine(IdempotencyStore store, IdempotencyListener listener) {
		this.store = store;
		this.listener = listener;
	}

	/**
	 * Claim the key of a request, or decide how to answer it without running it.
	 * @param key the key
	 * @param fingerprint the request fingerprint
	 * @param policy the operation's settings
	 * @return the decision
	 * @throws IdempotencyStoreUnavailableException if the store cannot be reached
	 */
	public Decision begin(IdempotencyKey key, String fingerprint, OperationPolicy policy) {
		ClaimResult result;
		try {
			result = this.store.claim(new ClaimRequest(key, fingerprint, policy.lease(), policy.ttl()));
		}
		catch (DataAccessException ex) {
			throw new IdempotencyStoreUnavailableException(ex);
		}
		if (result instanceof ClaimResult.Claimed claimed) {
			logger.debug("{} claimed{}", key, claimed.takenOver() ? " after its lease ran out" : "");
			this.listener.onExecutionStarted(key.operation(), claimed.takenOver());
			return new Decision.Proceed(
					new Execution(this.store, this.listener, key, claimed.token(), policy, claimed.takenOver()));
		}
		ClaimResult.Existing existing = (ClaimResult.Existing) result;
		Decision decision = decide(existing, fingerprint);
		logger.debug("{} answered without running: {}", key, decision);
		this.listener.onOutcome(key.operation(), outcomeOf(decision));
		return decision;
	}

	/**
	 * Report a request refused because its key was missing or malformed.
	 * @param operation the operation name
	 */
	public void reportMissingKey(String operation) {
		this.listener.onOutcome(operation, Outcome.MISSING_KEY);
	}

	private static Decision decide(ClaimResult.Existing existing, String fingerprint) {
		IdempotencyRecord record = existing.record();
		if (!record.fingerprint().equals(fingerprint)) {
			return new Decision.Mismatch();
		}
		if (record.isCompleted()) {
			return new Decision.Replay(record.response());
		}
		return new Decision.InProgress(existing.leaseRemaining());
	}

	private static Outcome outcomeOf(Decision decision) {
		if (decision instanceof Decision.Replay) {
			return Outcome.REPLAYED;
		}
		return (decision instanceof Decision.Mismatch) ? Outcome.MISMATCH : Outcome.CONFLICT;
	}

}
