package io.github.idempotency.web.reactive;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import org.springframework.core.BridgeMethodResolver;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import io.github.idempotency.engine.IdempotentCall;
import io.github.idempotency.store.FailureTypes;
import io.github.idempotency.store.StoredResponse;

/**
 * What one reactive request carries from the web filter, through the handler advice, back to the
 * filter, which alone finishes it. It decides, once, how a claimed call ends when the request is
 * cancelled: released if its work never started, left to its lease if it may have.
 */
final class ReactiveIdempotencyExchange {

	static final String ATTRIBUTE = ReactiveIdempotencyExchange.class.getName();

	private final ServerWebExchange exchange;

	private final BufferedRequest request;

	private final CapturingResponse response;

	private final @Nullable Method handlerMethod;

	private final AtomicBoolean invoked = new AtomicBoolean();

	private final AtomicReference<Phase> phase = new AtomicReference<>(Phase.OPEN);

	private final AtomicBoolean settled = new AtomicBoolean();

	private volatile @Nullable IdempotentCall call;

	private volatile @Nullable StoredResponse replay;

	private volatile @Nullable StoredResponse refusal;

	private volatile @Nullable Throwable failure;

	private final Sinks.One<Accepted> accepted = Sinks.one();

	/**
	 * Create the state of one request.
	 * @param exchange the exchange the handler chain sees
	 * @param request its request, read whole
	 * @param response its response, captured
	 * @param handlerMethod the annotated handler method the request is mapped to, or {@code null}
	 * for a functional route
	 */
	ReactiveIdempotencyExchange(ServerWebExchange exchange, BufferedRequest request, CapturingResponse response,
			@Nullable Method handlerMethod) {
		this.exchange = exchange;
		this.request = request;
		this.response = response;
		this.handlerMethod = (handlerMethod != null) ? BridgeMethodResolver.findBridgedMethod(handlerMethod) : null;
	}

	ServerWebExchange exchange() {
		return this.exchange;
	}

	BufferedRequest request() {
		return this.request;
	}

	CapturingResponse response() {
		return this.response;
	}

	String path() {
		return this.request.getURI().getRawPath();
	}

	/**
	 * Take the call of a method as this request's handler call, if it is the first call of the
	 * handler method the request was mapped to.
	 * @param method the called method
	 * @return whether it is
	 */
	boolean takeHandlerCall(Method method) {
		return this.handlerMethod != null && BridgeMethodResolver.findBridgedMethod(method).equals(this.handlerMethod)
				&& this.invoked.compareAndSet(false, true);
	}

	/**
	 * Note that this request's call is claimed. If the request was cancelled meanwhile, its key is
	 * released, as its work never started.
	 * @param call the claimed call
	 * @param claims the claims, which release a key off the event loop
	 * @return whether the work may start
	 */
	boolean claimed(IdempotentCall call, ReactiveClaims claims) {
		this.call = call;
		if (this.phase.get() == Phase.CANCELLED) {
			if (takeSettlement()) {
				claims.release(call, FailureTypes.of(new RequestCancelledException())).subscribe();
			}
			return false;
		}
		return true;
	}

	/**
	 * Start the work of the claimed call, unless the request was cancelled first.
	 * @return whether the work starts
	 */
	boolean startWork() {
		return this.phase.compareAndSet(Phase.OPEN, Phase.WORKING);
	}

	/**
	 * The request was cancelled (its client went away, or a timeout upstream): a claimed call
	 * whose work never started is released; one whose work may have started is left to its lease,
	 * and a retry takes it over once the lease runs out.
	 * @param claims the claims, which release a key off the event loop
	 */
	void cancel(ReactiveClaims claims) {
		if (this.phase.compareAndSet(Phase.OPEN, Phase.CANCELLED)) {
			IdempotentCall claimed = this.call;
			if (claimed != null && takeSettlement()) {
				claims.release(claimed, FailureTypes.of(new RequestCancelledException())).subscribe();
			}
			return;
		}
		IdempotentCall claimed = this.call;
		if (this.phase.get() == Phase.WORKING && claimed != null && takeSettlement()) {
			claimed.abandon();
		}
	}

	/**
	 * Take the one settlement of the claimed call: store, release or abandon.
	 * @return {@code false} if it was taken already
	 */
	boolean takeSettlement() {
		return this.settled.compareAndSet(false, true);
	}

	@Nullable IdempotentCall call() {
		return this.call;
	}

	void replay(StoredResponse stored) {
		this.replay = stored;
	}

	@Nullable StoredResponse replay() {
		return this.replay;
	}

	void refuse(StoredResponse problem) {
		this.refusal = problem;
	}

	@Nullable StoredResponse refusal() {
		return this.refusal;
	}

	void recordFailure(Throwable failure) {
		if (this.failure == null) {
			this.failure = failure;
		}
	}

	@Nullable Throwable failure() {
		return this.failure;
	}

	/**
	 * Note that the claimed call's work may outlast its request: once it has run for the given
	 * time, the request is answered {@code 202 Accepted} and the work goes on.
	 * @param answer the {@code 202 Accepted} answer
	 * @param after how long the request waits for the work first
	 */
	void acceptable(StoredResponse answer, Duration after) {
		this.accepted.tryEmitValue(new Accepted(answer, after));
	}

	/**
	 * Return the {@code 202 Accepted} answer of a call whose work may outlast its request, once its
	 * work has started; never, for any other.
	 * @return the answer and how long to wait before it
	 */
	Mono<Accepted> acceptable() {
		return this.accepted.asMono();
	}

	/**
	 * The answer of a request whose work may outlast it, and how long it waits for the work first.
	 *
	 * @param answer the {@code 202 Accepted} answer
	 * @param after how long the request waits
	 */
	record Accepted(StoredResponse answer, Duration after) {
	}

	private enum Phase {

		OPEN, WORKING, CANCELLED

	}

	/**
	 * Names the cause of a key released because its request was cancelled before its work started.
	 */
	static final class RequestCancelledException extends RuntimeException {

		RequestCancelledException() {
			super("The request was cancelled before its work started", null, false, false);
		}

	}

}
