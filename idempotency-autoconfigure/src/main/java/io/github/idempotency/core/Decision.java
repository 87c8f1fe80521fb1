package io.github.idempotency.core;

import java.time.Duration;

import io.github.idempotency.store.StoredResponse;

/**
 * What the engine decided for a request: run it, replay a stored response, or refuse it.
 */
public sealed interface Decision permits Decision.Proceed, Decision.Replay, Decision.InProgress, Decision.Mismatch {

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

}
