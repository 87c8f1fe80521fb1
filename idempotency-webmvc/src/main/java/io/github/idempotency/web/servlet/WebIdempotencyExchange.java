package io.github.idempotency.web.servlet;

import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;
import org.springframework.core.BridgeMethodResolver;
import org.springframework.web.context.request.async.AsyncRequestNotUsableException;
import org.springframework.web.context.request.async.AsyncRequestTimeoutException;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

import io.github.idempotency.engine.IdempotentCall;
import io.github.idempotency.engine.IdempotentAttributes;
import io.github.idempotency.store.StoredResponse;

/**
 * The state one HTTP request carries from the filter, through the handler interceptor and the
 * method advice, back to the filter, which alone finishes it: sends the captured response once
 * its result is stored or released, or the stored response of a replay.
 */
final class WebIdempotencyExchange {

	static final String ATTRIBUTE = WebIdempotencyExchange.class.getName();

	private final BufferedBodyRequest request;

	private final CapturingResponse response;

	private Method handlerMethod;

	private IdempotentAttributes attributes;

	private boolean invoked;

	private volatile @Nullable IdempotentCall call;

	private volatile StoredResponse replay;

	private volatile @Nullable StoredResponse refusal;

	private volatile Throwable failure;

	private volatile @Nullable AsyncWork work;

	private volatile @Nullable HandlerMethod handler;

	private volatile boolean endedEarly;

	private volatile @Nullable StoredResponse accepted;

	private final AtomicBoolean finished = new AtomicBoolean();

	private volatile boolean answered;

	WebIdempotencyExchange(BufferedBodyRequest request, CapturingResponse response) {
		this.request = request;
		this.response = response;
	}

	/**
	 * Return the exchange of the current request.
	 * @return the exchange, or {@code null} outside a request the filter saw
	 */
	static WebIdempotencyExchange current() {
		RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
		return (attributes != null)
				? (WebIdempotencyExchange) attributes.getAttribute(ATTRIBUTE, RequestAttributes.SCOPE_REQUEST) : null;
	}

	BufferedBodyRequest request() {
		return this.request;
	}

	CapturingResponse response() {
		return this.response;
	}

	/**
	 * Bind the {@code @Idempotent} handler method this request was mapped to, and start
	 * capturing its response, so that nothing reaches the client before its result is settled.
	 */
	void bind(Method handlerMethod, IdempotentAttributes attributes) {
		this.handlerMethod = BridgeMethodResolver.findBridgedMethod(handlerMethod);
		this.attributes = attributes;
		this.response.startCapture();
	}

	IdempotentAttributes attributes() {
		return this.attributes;
	}

	/**
	 * Return whether a call is the first call of the handler method this request was mapped to.
	 * @param method the called method
	 * @return whether the call is this request's handler call
	 */
	boolean isHandlerCall(Method method) {
		return !this.invoked && this.handlerMethod != null
				&& BridgeMethodResolver.findBridgedMethod(method).equals(this.handlerMethod);
	}

	void markInvoked() {
		this.invoked = true;
	}

	/**
	 * Note that this request's call is claimed and running, to be finished by the finisher.
	 * @param call the call
	 */
	void start(IdempotentCall call) {
		this.call = call;
	}

	/**
	 * Return the claimed call of this request.
	 * @return the call, or {@code null} if its handler was not claimed (not reached yet, replayed,
	 * refused, or not idempotent)
	 */
	@Nullable IdempotentCall call() {
		return this.call;
	}

	/**
	 * Follow the asynchronous work the handler returned, and remember the handler, which renders
	 * the work's result should the request end first.
	 */
	void answeredAsynchronously(AsyncWork work, HandlerMethod handler) {
		this.work = work;
		this.handler = handler;
	}

	/**
	 * Answer this request {@code 202 Accepted} while its work goes on: the work's result is
	 * rendered and stored when it ends.
	 * @param work the work
	 * @param handler the handler, which renders the work's result
	 * @param answer the {@code 202} answer
	 */
	void accepted(AsyncWork work, HandlerMethod handler, StoredResponse answer) {
		answeredAsynchronously(work, handler);
		this.accepted = answer;
		this.endedEarly = true;
	}

	@Nullable StoredResponse accepted() {
		return this.accepted;
	}

	@Nullable AsyncWork work() {
		return this.work;
	}

	@Nullable HandlerMethod handler() {
		return this.handler;
	}

	/**
	 * Note that the request timed out or failed (a client gone) while its asynchronous work ran:
	 * whatever answers it from now on is not the work's result.
	 */
	void markEndedEarly() {
		this.endedEarly = true;
	}

	/**
	 * Return whether the request ended without the result of its asynchronous work: it timed out,
	 * its client went away, or the given failure says so.
	 * @param unresolved what the request ended with that no handler resolved, or {@code null}
	 * @return whether the response is not the work's result
	 */
	boolean endedBeforeItsWork(@Nullable Throwable unresolved) {
		if (this.work == null) {
			return false;
		}
		return this.endedEarly || endsEarly(this.failure) || endsEarly(unresolved);
	}

	private static boolean endsEarly(@Nullable Throwable failure) {
		return failure instanceof AsyncRequestTimeoutException || failure instanceof AsyncRequestNotUsableException
				|| failure instanceof AsyncRequestEndedUnseenException;
	}


	/**
	 * Answer this request with a stored response instead of what the handler chain writes.
	 * @param stored the stored response
	 */
	void replay(StoredResponse stored) {
		this.replay = stored;
	}

	StoredResponse replay() {
		return this.replay;
	}

	boolean isReplay() {
		return this.replay != null;
	}

	/**
	 * Answer this request with the starter's refusal, decided before its handler ran, instead of
	 * what the handler chain writes; no exception handler of the application sees it.
	 * @param problem the problem response
	 */
	void refuse(StoredResponse problem) {
		this.refusal = problem;
	}

	@Nullable StoredResponse refusal() {
		return this.refusal;
	}

	/**
	 * Return whether the starter answers this request itself, with a replay or a refusal.
	 * @return whether the handler chain's response is replaced
	 */
	boolean isAnsweredByTheStarter() {
		return this.replay != null || this.refusal != null;
	}

	void recordFailure(Throwable failure) {
		if (this.failure == null) {
			this.failure = failure;
		}
	}

	Throwable failure() {
		return this.failure;
	}

	/**
	 * Mark the exchange finished.
	 * @return {@code false} if it was already
	 */
	boolean finish() {
		return this.finished.compareAndSet(false, true);
	}

	/**
	 * Mark the exchange answered by the starter itself, so that a failure of the handler chain
	 * after that does not reach the client.
	 */
	void markAnswered() {
		this.answered = true;
	}

	boolean answered() {
		return this.answered;
	}

}
