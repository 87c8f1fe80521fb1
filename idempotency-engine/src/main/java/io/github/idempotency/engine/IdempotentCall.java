package io.github.idempotency.engine;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.idempotency.IdempotencyContext;
import io.github.idempotency.store.FailureTypes;
import io.github.idempotency.Disposition;
import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.IdempotencyStoreUnavailableException;
import io.github.idempotency.store.StoredResponse;

/**
 * One idempotent call and its lifecycle, the one owner of its end: bound to its entry point, then
 * replayed, refused, or claimed and running; a running call finishes once, by storing its result,
 * releasing its key or leaving it to its lease. Entry points only trigger these transitions, from
 * whichever hook sees the result.
 */
public final class IdempotentCall {

	private static final Logger logger = LoggerFactory.getLogger(IdempotentCall.class);

	private final String mismatchDetail;

	private final AtomicReference<State> state = new AtomicReference<>(State.BOUND);

	private volatile @Nullable Execution execution;

	IdempotentCall(String mismatchDetail) {
		this.mismatchDetail = mismatchDetail;
	}

	void claimed(Execution execution) {
		this.execution = execution;
		move(State.BOUND, State.RUNNING);
	}

	void replayed() {
		move(State.BOUND, State.REPLAYED);
	}

	void refused() {
		move(State.BOUND, State.REFUSED);
	}

	public IdempotencyKey key() {
		return execution().key();
	}

	/**
	 * Return the context of the claimed call, for code that runs its work on another thread.
	 * @return the context
	 * @throws IllegalStateException if the call was not claimed
	 */
	public IdempotencyContext context() {
		return execution().context();
	}

	Execution execution() {
		Execution claimed = this.execution;
		if (claimed == null) {
			throw new IllegalStateException("The call was not claimed: " + this.state.get());
		}
		return claimed;
	}

	public State state() {
		return this.state.get();
	}

	/**
	 * Settle the call's result: store it and answer what its caller gets, or release its key when
	 * the result is transient (the caller then gets what the call produced).
	 * @param response the result as it is stored
	 * @param failure what the call threw, or {@code null}
	 * @param disposition whether the result is final or transient
	 * @return what the caller gets
	 */
	public Answer finish(StoredResponse response, @Nullable Throwable failure, Disposition disposition) {
		end();
		Execution execution = execution();
		if (disposition == Disposition.RELEASE) {
			releaseQuietly(FailureTypes.of(response.status(), failure));
			return Answer.DELIVER;
		}
		Completion completion;
		try {
			completion = execution.complete(response, failure != null);
		}
		catch (RuntimeException ex) {
			logger.warn("Could not store the result of {}; its key frees when its lease runs out", key(), ex);
			return new Answer.Refuse(new IdempotencyStoreUnavailableException(ex));
		}
		if (completion instanceof Completion.TakenOver) {
			logger.warn("{} ran past its lease and was taken over; its result is discarded", key());
		}
		return Answer.of(completion, execution.policy().lease(), this.mismatchDetail);
	}

	/**
	 * As {@link #finish}, for a call claimed without blocking ({@link IdempotentInvocation#invokeAsync}),
	 * without blocking the calling thread.
	 * @param response the result as it is stored
	 * @param failure what the call threw, or {@code null}
	 * @param disposition whether the result is final or transient
	 * @return what the caller gets
	 */
	public CompletionStage<Answer> finishAsync(StoredResponse response, @Nullable Throwable failure,
			Disposition disposition) {
		end();
		Execution execution = execution();
		if (disposition == Disposition.RELEASE) {
			return releaseQuietlyAsync(FailureTypes.of(response.status(), failure)).thenApply((released) -> Answer.DELIVER);
		}
		CompletionStage<Completion> completion;
		try {
			completion = execution.completeAsync(response);
		}
		catch (RuntimeException ex) {
			completion = CompletableFuture.failedFuture(ex);
		}
		return completion.handle((completed, ex) -> {
			if (ex != null) {
				logger.warn("Could not store the result of {}; its key frees when its lease runs out", key(), ex);
				return new Answer.Refuse(new IdempotencyStoreUnavailableException(ex));
			}
			if (completed instanceof Completion.TakenOver) {
				logger.warn("{} ran past its lease and was taken over; its result is discarded", key());
			}
			return Answer.of(completed, execution.policy().lease(), this.mismatchDetail);
		});
	}

	/**
	 * As {@link #release}, for a call claimed without blocking, without blocking the calling
	 * thread; a failure to release is logged, and the key frees when its lease runs out.
	 * @param failure what failed, as {@link FailureTypes} names it
	 * @return completion once the key is released, or could not be
	 */
	public CompletionStage<Void> releaseAsync(String failure) {
		end();
		return releaseQuietlyAsync(failure);
	}

	private CompletionStage<Void> releaseQuietlyAsync(String failure) {
		CompletionStage<Void> released;
		try {
			released = execution().releaseAsync(failure);
		}
		catch (RuntimeException ex) {
			released = CompletableFuture.failedFuture(ex);
		}
		// The execution logs a store that failed to release.
		return released.handle((ignored, ex) -> null);
	}

	/**
	 * Give the key up: the call failed transiently, or before it produced a result to store.
	 * @param failure what failed, as {@link FailureTypes} names it
	 */
	public void release(String failure) {
		end();
		releaseQuietly(failure);
	}

	/**
	 * Leave the key to its lease: the work under it may still run, but its end cannot be seen.
	 */
	public void abandon() {
		end();
		execution().abandon();
	}

	private void end() {
		move(State.RUNNING, State.FINISHED);
	}

	private void move(State from, State to) {
		if (!this.state.compareAndSet(from, to)) {
			throw new IllegalStateException("An idempotent call cannot go from " + this.state.get() + " to " + to);
		}
	}

	private void releaseQuietly(String failure) {
		try {
			execution().release(failure);
		}
		catch (RuntimeException ex) {
			logger.warn("Could not release {}; it frees when its lease runs out", key(), ex);
		}
	}

	/**
	 * Where a claimed call is in its life.
	 */
	public enum State {

		/**
		 * Bound to its entry point; neither claimed nor answered yet.
		 */
		BOUND,

		/**
		 * Answered with the stored result of an earlier call; it does not run.
		 */
		REPLAYED,

		/**
		 * Refused before it ran (missing key, in progress, reused key...).
		 */
		REFUSED,

		/**
		 * Its key is claimed and its work may run.
		 */
		RUNNING,

		/**
		 * Its result is stored, its key released, or left to its lease.
		 */
		FINISHED

	}

}
