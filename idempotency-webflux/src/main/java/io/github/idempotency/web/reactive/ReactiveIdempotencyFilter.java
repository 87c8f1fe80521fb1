package io.github.idempotency.web.reactive;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.util.context.Context;

import io.github.idempotency.RequestBodyTooLargeException;
import io.github.idempotency.engine.IdempotentAttributeSource;
import io.github.idempotency.engine.IdempotentAttributes;

/**
 * Wraps every request mapped to an {@code @Idempotent} handler method, as the innermost web
 * filter: reads its body whole for the fingerprint (413 above the limit, before anything is
 * stored), captures what the handler chain writes, and hands the exchange to the finisher once
 * the chain completes, fails or is cancelled.
 */
final class ReactiveIdempotencyFilter implements WebFilter, Ordered {

	private final Supplier<List<RequestMappingHandlerMapping>> mappings;

	private final IdempotentAttributeSource attributeSource;

	private final ReactiveExecutionFinisher finisher;

	private final ReactiveClaims claims;

	private final int maxBodySize;

	private final @Nullable Predicate<String> acceptedOperations;

	private volatile Set<HttpMethod> guardedMethods;

	/**
	 * Create the filter.
	 * @param mappings the handler mappings
	 * @param attributeSource the attributes of {@code @Idempotent} methods
	 * @param finisher the finisher of exchanges
	 * @param claims the claims, which release the key of a cancelled request
	 * @param maxBodySize the largest request body
	 * @param acceptedOperations which operations set accept-after, or {@code null} if none does
	 */
	ReactiveIdempotencyFilter(Supplier<List<RequestMappingHandlerMapping>> mappings,
			IdempotentAttributeSource attributeSource, ReactiveExecutionFinisher finisher, ReactiveClaims claims,
			int maxBodySize, @Nullable Predicate<String> acceptedOperations) {
		this.mappings = mappings;
		this.attributeSource = attributeSource;
		this.finisher = finisher;
		this.claims = claims;
		this.maxBodySize = maxBodySize;
		this.acceptedOperations = acceptedOperations;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		if (!guardedMethods().contains(exchange.getRequest().getMethod())) {
			return chain.filter(exchange);
		}
		return guardedHandler(exchange).map(Optional::of)
			.defaultIfEmpty(Optional.empty())
			.flatMap((found) -> found.isPresent() ? guard(exchange, chain, found.get()) : chain.filter(exchange));
	}

	private Set<HttpMethod> guardedMethods() {
		Set<HttpMethod> methods = this.guardedMethods;
		if (methods == null) {
			methods = findGuardedMethods();
			this.guardedMethods = methods;
		}
		return methods;
	}

	/**
	 * Return the HTTP methods of the {@code @Idempotent} handlers, so that other requests (every
	 * GET, usually) pass without a second handler lookup.
	 */
	private Set<HttpMethod> findGuardedMethods() {
		Set<HttpMethod> methods = new HashSet<>();
		for (RequestMappingHandlerMapping mapping : this.mappings.get()) {
			mapping.getHandlerMethods().forEach((info, handler) -> {
				if (this.attributeSource.find(handler.getMethod(), handler.getBeanType()) == null) {
					return;
				}
				Set<RequestMethod> declared = info.getMethodsCondition().getMethods();
				if (declared.isEmpty()) {
					methods.addAll(List.of(HttpMethod.values()));
				}
				declared.forEach((method) -> methods.add(method.asHttpMethod()));
			});
		}
		return Set.copyOf(methods);
	}

	private Mono<Guarded> guardedHandler(ServerWebExchange exchange) {
		return Flux.fromIterable(this.mappings.get())
			.concatMap((mapping) -> mapping.getHandler(exchange))
			.next()
			.filter(HandlerMethod.class::isInstance)
			.cast(HandlerMethod.class)
			.flatMap((handler) -> Mono
				.justOrEmpty(this.attributeSource.find(handler.getMethod(), handler.getBeanType()))
				.map((attributes) -> new Guarded(handler, attributes)));
	}

	private Mono<Void> guard(ServerWebExchange exchange, WebFilterChain chain, Guarded guarded) {
		ServerHttpRequest request = exchange.getRequest();
		return DataBufferUtils.join(request.getBody(), this.maxBodySize)
			.map(ReactiveIdempotencyFilter::bytes)
			.defaultIfEmpty(new byte[0])
			.map(Optional::of)
			.onErrorResume(DataBufferLimitException.class, (ex) -> Mono.just(Optional.empty()))
			.flatMap((body) -> body.isPresent() ? run(exchange, chain, guarded, body.get())
					: this.finisher.refuse(exchange, new RequestBodyTooLargeException("The request body is larger "
							+ "than the " + this.maxBodySize + " bytes an idempotent request may have.")));
	}

	private Mono<Void> run(ServerWebExchange exchange, WebFilterChain chain, Guarded guarded, byte[] body) {
		BufferedRequest request = new BufferedRequest(exchange.getRequest(), body,
				exchange.getResponse().bufferFactory());
		CapturingResponse response = new CapturingResponse(exchange.getResponse());
		ServerWebExchange captured = exchange.mutate().request(request).response(response).build();
		ReactiveIdempotencyExchange state = new ReactiveIdempotencyExchange(captured, request, response,
				guarded.handler().getMethod());
		Mono<Void> work = chain.filter(captured)
			.contextWrite(Context.of(ReactiveIdempotencyExchange.ATTRIBUTE, state))
			.then(Mono.defer(() -> this.finisher.finish(state)))
			.onErrorResume((ex) -> this.finisher.finishFailed(state, ex));
		if (this.acceptedOperations != null && this.acceptedOperations
			.test(ReactiveWebIdempotencyHandler.operationName(guarded.attributes(), exchange))) {
			return runAccepting(work, state);
		}
		return work.doOnCancel(() -> state.cancel(this.claims));
	}

	/**
	 * Run the work of a request that may be answered {@code 202 Accepted}: on a subscription of its
	 * own, which the request's cancellation ends only until that answer was sent, so that the work
	 * outlives the request it was accepted for and stores its response when it ends. The request
	 * ends when its answer is written: the work's response, or the {@code 202}, whichever took the
	 * response first.
	 */
	private Mono<Void> runAccepting(Mono<Void> work, ReactiveIdempotencyExchange state) {
		CapturingResponse response = state.response();
		return Mono.deferContextual((context) -> {
			Sinks.Empty<Void> answered = Sinks.empty();
			Disposable running = work.contextWrite(context).subscribe(null, (ex) -> {
				if (!response.sentAccepted()) {
					answered.tryEmitError(ex);
				}
			}, () -> {
				if (!response.sentAccepted()) {
					answered.tryEmitEmpty();
				}
			});
			Disposable accepting = state.acceptable()
				.delayUntil((answer) -> Mono.delay(answer.after()))
				.flatMap((answer) -> {
					Mono<Void> sending = response.sendAccepted(answer.answer());
					return (sending != null) ? sending.thenReturn(true) : Mono.<Boolean>empty();
				})
				.subscribe((sent) -> answered.tryEmitEmpty(), answered::tryEmitError);
			return answered.asMono().doOnCancel(() -> {
				if (!response.sentAccepted()) {
					accepting.dispose();
					running.dispose();
					state.cancel(this.claims);
				}
			}).doFinally((signal) -> accepting.dispose());
		});
	}

	private static byte[] bytes(DataBuffer buffer) {
		try {
			byte[] bytes = new byte[buffer.readableByteCount()];
			buffer.read(bytes);
			return bytes;
		}
		finally {
			DataBufferUtils.release(buffer);
		}
	}

	/**
	 * Innermost, so that what the handler chain writes is stored as it is, and a replay leaves
	 * through the same filters (security, logging, compression) as the first answer did.
	 */
	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	private record Guarded(HandlerMethod handler, IdempotentAttributes attributes) {
	}

}
