package io.github.idempotency.web.servlet;

import java.lang.reflect.Method;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Function;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;
import org.springframework.core.ReactiveAdapter;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.async.CallableProcessingInterceptor;
import org.springframework.web.context.request.async.WebAsyncTask;
import org.springframework.web.context.request.async.WebAsyncUtils;

import io.github.idempotency.IdempotencyContext;

/**
 * The work of an {@code @Idempotent} handler that answers asynchronously, followed to its end even
 * when its request ends first (a timeout, a client gone), so that its key is never given up while
 * the work may still run.
 * <p>
 * A {@code CompletionStage} is followed to its completion, a single-value reactive type (a
 * {@code Mono}) to its value, a {@code Callable} or {@code WebAsyncTask} from the moment it starts
 * on its executor to its return; one that never started can be cancelled. Other asynchronous
 * values ({@code DeferredResult}, emitters, streaming bodies, a {@code Flux}) are set by work the
 * starter cannot see: {@link #observable()} is {@code false}.
 */
final class AsyncWork {

	private static final String INTERCEPTOR = AsyncWork.class.getName();

	private final boolean observable;

	private final AtomicReference<State> state;

	private volatile @Nullable Object value;

	private volatile @Nullable Throwable failure;

	private @Nullable BiConsumer<@Nullable Object, @Nullable Throwable> whenEnded;

	private @Nullable Object result;

	private AsyncWork(boolean observable, State state, @Nullable Object result) {
		this.observable = observable;
		this.state = new AtomicReference<>(state);
		this.result = result;
	}

	/**
	 * Follow the asynchronous result a handler returned.
	 * @param result what the handler returned
	 * @param method the handler method
	 * @param request the request
	 * @param context the handler's context, which a {@code Callable} runs in
	 * @return the work, or {@code null} if the handler answered synchronously
	 */
	static @Nullable AsyncWork of(@Nullable Object result, Method method, HttpServletRequest request,
			IdempotencyContext context) {
		if (result instanceof CompletionStage<?> stage) {
			AsyncWork work = new AsyncWork(true, State.RUNNING, shielded(stage, method));
			stage.whenComplete((value, failure) -> work.end(value, unwrap(failure)));
			return work;
		}
		if (result instanceof Callable<?> || result instanceof WebAsyncTask<?>) {
			AsyncWork work = new AsyncWork(true, State.NOT_STARTED, result);
			WebAsyncUtils.getAsyncManager(request).registerCallableInterceptor(INTERCEPTOR, work.new Follower(context));
			return work;
		}
		ReactiveAdapter reactive = (result != null) ? AsyncReturnTypes.followableReactiveAdapter(result) : null;
		if (reactive != null) {
			AsyncWork work = new AsyncWork(true, State.RUNNING, null);
			work.result = SingleValueReactiveWork.follow(result, reactive, work::end);
			return work;
		}
		return AsyncReturnTypes.isAsyncValue(result) ? new AsyncWork(false, State.RUNNING, result) : null;
	}

	/**
	 * Follow work the starter runs itself, for an accepted request.
	 * @param work the work's result
	 * @return the work, running
	 */
	static AsyncWork following(CompletionStage<?> work) {
		AsyncWork followed = new AsyncWork(true, State.RUNNING, null);
		work.whenComplete((value, failure) -> followed.end(value, unwrap(failure)));
		return followed;
	}

	/**
	 * Return a stage that completes with the handler's, for Spring MVC to answer from: Spring
	 * cancels the stage it answers from when the request times out, which completes it without
	 * stopping the work behind it; the handler's own stage still tells when the work ends.
	 */
	private static Object shielded(CompletionStage<?> stage, Method method) {
		CompletionStage<?> dependent = stage.thenApply(Function.identity());
		return method.getReturnType().isInstance(dependent) ? dependent : stage;
	}

	/**
	 * Return what Spring MVC answers the request from in place of what the handler returned.
	 * @return the handler's result, or a stage that completes with it
	 */
	@Nullable Object result() {
		return this.result;
	}

	/**
	 * Return whether the end of this work can be seen.
	 * @return whether {@link #whenEnded} is ever called
	 */
	boolean observable() {
		return this.observable;
	}

	/**
	 * Make sure a work that has not started never does.
	 * @return whether it was cancelled before it started
	 */
	boolean cancelIfNotStarted() {
		return this.state.compareAndSet(State.NOT_STARTED, State.CANCELLED);
	}

	/**
	 * Call the given action, once, with the work's value or failure when it ends, at once if it
	 * has ended; on the thread that ends it.
	 * @param action the action
	 */
	void whenEnded(BiConsumer<@Nullable Object, @Nullable Throwable> action) {
		synchronized (this) {
			if (this.state.get() != State.ENDED) {
				this.whenEnded = action;
				return;
			}
		}
		action.accept(this.value, this.failure);
	}

	private void end(@Nullable Object value, @Nullable Throwable failure) {
		BiConsumer<@Nullable Object, @Nullable Throwable> action;
		synchronized (this) {
			State previous = this.state.get();
			if (previous == State.ENDED || previous == State.CANCELLED) {
				return;
			}
			this.value = value;
			this.failure = failure;
			this.state.set(State.ENDED);
			action = this.whenEnded;
		}
		if (action != null) {
			action.accept(value, failure);
		}
	}

	private static @Nullable Throwable unwrap(@Nullable Throwable failure) {
		return (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause() : failure;
	}

	private enum State {

		NOT_STARTED, RUNNING, ENDED, CANCELLED

	}

	/**
	 * Sees a {@code Callable} start and end on its executor's thread, and opens the execution's
	 * context there.
	 */
	private final class Follower implements CallableProcessingInterceptor {

		private final IdempotencyContext context;

		private final ThreadLocal<IdempotencyContext.Scope> scope = new ThreadLocal<>();

		Follower(IdempotencyContext context) {
			this.context = context;
		}

		@Override
		public <T> void preProcess(NativeWebRequest request, Callable<T> task) {
			if (!AsyncWork.this.state.compareAndSet(State.NOT_STARTED, State.RUNNING)) {
				throw new CancellationException("The request ended before its work started");
			}
			this.scope.set(IdempotencyContext.open(this.context));
		}

		@Override
		public <T> void postProcess(NativeWebRequest request, Callable<T> task, @Nullable Object result) {
			IdempotencyContext.Scope opened = this.scope.get();
			if (opened != null) {
				opened.close();
				this.scope.remove();
			}
			if (result instanceof Throwable failure) {
				end(null, failure);
			}
			else {
				end(result, null);
			}
		}

	}

}
