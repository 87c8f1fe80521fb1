package io.github.idempotency.engine;

import io.github.idempotency.IdempotencyLeaseLostException;
import io.github.idempotency.IdempotencyRateLimitedException;

import java.time.Duration;

import io.github.idempotency.IdempotencyException;
import io.github.idempotency.IdempotencyKeyInProgressException;
import io.github.idempotency.IdempotencyKeyMismatchException;
import io.github.idempotency.store.StoredResponse;

/**
 * What the caller of an idempotent call gets, decided in this one place from the engine's decision
 * or from how the call's completion ended; each entry point renders it in its own terms.
 */
public sealed interface Answer permits Answer.Deliver, Answer.Replay, Answer.Refuse, Answer.RolledBack {

	/**
	 * What the call produced goes out as it is.
	 */
	Answer DELIVER = new Deliver();

	/**
	 * The call's transaction was marked rollback-only: nothing it did or produced stands.
	 */
	Answer ROLLED_BACK = new RolledBack();

	/**
	 * Answer a call that does not run.
	 * @param decision a replay, in progress, a mismatch or rate limited
	 * @param mismatchDetail what to tell a caller that reused a key
	 * @return the answer
	 */
	static Answer of(Decision decision, String mismatchDetail) {
		if (decision instanceof Decision.Replay replay) {
			return new Replay(replay.response());
		}
		if (decision instanceof Decision.InProgress inProgress) {
			return new Refuse(new IdempotencyKeyInProgressException(inProgress.retryAfter()));
		}
		if (decision instanceof Decision.RateLimited rateLimited) {
			return new Refuse(new IdempotencyRateLimitedException(rateLimited.retryAfter()));
		}
		if (decision instanceof Decision.Mismatch) {
			return new Refuse(new IdempotencyKeyMismatchException(mismatchDetail));
		}
		throw new IllegalArgumentException("A call that runs has no answer yet: " + decision);
	}

	/**
	 * Answer a call whose result was offered for storing.
	 * @param completion how the completion ended
	 * @param lease the operation's lease, after which a retry may succeed
	 * @param mismatchDetail what to tell a caller whose key a different request took meanwhile
	 * @return the answer
	 */
	static Answer of(Completion completion, Duration lease, String mismatchDetail) {
		if (completion instanceof Completion.Stored) {
			return DELIVER;
		}
		if (completion instanceof Completion.TakenOver) {
			return new Refuse(new IdempotencyLeaseLostException(lease));
		}
		if (completion instanceof Completion.RolledBack) {
			return ROLLED_BACK;
		}
		return of(((Completion.Superseded) completion).decision(), mismatchDetail);
	}

	/**
	 * See {@link #DELIVER}.
	 */
	record Deliver() implements Answer {
	}

	/**
	 * The stored result of an earlier call with the key goes out instead.
	 *
	 * @param response the stored response
	 */
	record Replay(StoredResponse response) implements Answer {
	}

	/**
	 * The call is refused with a problem of the starter's.
	 *
	 * @param refusal the refusal
	 */
	record Refuse(IdempotencyException refusal) implements Answer {
	}

	/**
	 * See {@link #ROLLED_BACK}.
	 */
	record RolledBack() implements Answer {
	}

}
