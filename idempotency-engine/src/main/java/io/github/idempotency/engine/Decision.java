package io.github.idempotency.engine;

import java.time.Duration;

import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.StoredResponse;

/**
 * What the engine decided for a request: run it, replay a stored response, or refuse it.
 */
sealed interface Decision permits Decision.Proceed, Decision.Replay, Decision.InProgress, Decision.Mismatch,
		Decision.RateLimited {

	/**
	 * Decide how to answer a request whose key a live record holds.
	 * @param existing the record
	 * @param fingerprint the request's fingerprint
	 * @param retryAfter when to retry, should the record still be in progress
	 * @return a replay, a mismatch or in progress
	 */
	static Decision of(ClaimResult.Existing existing, String fingerprint, Duration retryAfter) {
		IdempotencyRecord record = existing.record();
		if (!record.fingerprint().equals(fingerprint)) {
			return new Mismatch();
		}
		if (record.isCompleted()) {
			return new Replay(record.response());
		}
		return new InProgress(retryAfter);
	}

	/**
	 * The key was claimed: run the operation, then complete or release the execution.
	 *
	 * @param execution the claimed execution
	 */
	record Proceed(Execution execution) implements Decision {
	}

	/**
	 * The key was completed by an earlier request with the same fingerprint.
	 *
	 * @param response the response to replay
	 */
	record Replay(StoredResponse response) implements Decision {
	}

	/**
	 * The key is held by a request still in progress.
	 *
	 * @param retryAfter how long until its lease runs out
	 */
	record InProgress(Duration retryAfter) implements Decision {
	}

	/**
	 * The key was used for a request with a different fingerprint.
	 */
	record Mismatch() implements Decision {
	}

	/**
	 * The tenant is at its limit of new keys or keys in flight, and the key is not known yet.
	 *
	 * @param retryAfter how long until the tenant may claim a new key again
	 */
	record RateLimited(Duration retryAfter) implements Decision {
	}

}
