package io.github.idempotency.web.reactive;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

import io.github.idempotency.FingerprintRequest;
import io.github.idempotency.IdempotencyContext;
import io.github.idempotency.IdempotencyException;
import io.github.idempotency.IdempotencyKeys;
import io.github.idempotency.engine.CallAdapter;
import io.github.idempotency.engine.IdempotentCall;
import io.github.idempotency.engine.IdempotentInvocation;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.web.HttpProblems;

/**
 * One call of a reactive HTTP entry point (an annotated handler or a functional route): its key
 * comes from the key header, its fingerprint from the request; its answer is its own publisher,
 * which starts only once the key is claimed, or an empty one when the starter answers instead.
 */
abstract class ReactiveCall implements CallAdapter<Publisher<?>> {

	private final ReactiveIdempotencyExchange exchange;

	private final String keyHeader;

	private final HttpProblems problems;

	private final ReactiveClaims claims;

	ReactiveCall(ReactiveIdempotencyExchange exchange, String keyHeader, HttpProblems problems, ReactiveClaims claims) {
		this.exchange = exchange;
		this.claims = claims;
		this.keyHeader = keyHeader;
		this.problems = problems;
	}

	ReactiveIdempotencyExchange exchange() {
		return this.exchange;
	}

	String keyHeader() {
		return this.keyHeader;
	}

	@Override
	public @Nullable String key() {
		return IdempotencyKeys.parseHeaderValues(this.exchange.request().getHeaders().get(this.keyHeader),
				this.keyHeader);
	}

	@Override
	public FingerprintRequest fingerprint(String operation) {
		BufferedRequest request = this.exchange.request();
		return new FingerprintRequest(operation, request.getURI().getRawPath(), request.getURI().getRawQuery(),
				ReactiveFingerprintBodies.contentType(request.getHeaders().getContentType()),
				ReactiveFingerprintBodies.of(request.getHeaders().getContentType(), request.body()));
	}

	/**
	 * Run the claimed call: its work starts when its publisher is subscribed, with the call's
	 * context in the Reactor context, unless the request was cancelled first.
	 */
	@Override
	public Publisher<?> run(IdempotentCall call) throws Throwable {
		if (!this.exchange.claimed(call, this.claims)) {
			return Mono.empty();
		}
		Object result;
		try {
			result = start();
		}
		catch (Throwable ex) {
			this.exchange.recordFailure(ex);
			throw ex;
		}
		Context context = Context.of(IdempotencyContext.class, call.context(), DiagnosticContextAccessor.KEY,
				IdempotentInvocation.diagnosticContext());
		if (result instanceof Mono<?> mono) {
			return Mono.defer(() -> this.exchange.startWork() ? mono : Mono.empty())
				.doOnError(this.exchange::recordFailure)
				.contextWrite(context);
		}
		Publisher<?> publisher = (result != null) ? (Publisher<?>) result : Mono.empty();
		return Flux.defer(() -> this.exchange.startWork() ? publisher : Flux.empty())
			.doOnError(this.exchange::recordFailure)
			.contextWrite(context);
	}

	/**
	 * Call what the entry point guards, which assembles its publisher, with the call's context
	 * open on the current thread.
	 * @return the publisher, or {@code null} for none
	 * @throws Throwable what the call threw
	 */
	abstract @Nullable Object start() throws Throwable;

	@Override
	public Publisher<?> replay(StoredResponse stored) {
		this.exchange.replay(stored);
		return Mono.empty();
	}

	@Override
	public Publisher<?> refuse(IdempotencyException refusal) {
		this.exchange.refuse(this.problems.response(refusal, this.exchange.path()));
		return Mono.empty();
	}

	@Override
	public String mismatchDetail() {
		return HttpProblems.MISMATCH_DETAIL;
	}

}
