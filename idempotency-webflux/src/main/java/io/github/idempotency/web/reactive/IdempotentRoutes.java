package io.github.idempotency.web.reactive;

import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseCookie;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.function.server.HandlerFilterFunction;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

import io.github.idempotency.RequestBodyTooLargeException;
import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.engine.OperationPolicies;
import io.github.idempotency.engine.OperationPolicy;
import io.github.idempotency.web.HttpProblems;

/**
 * Guards the routes of Spring WebFlux functional endpoints, as {@code @Idempotent} guards an
 * annotated handler: {@code route().POST("/payments", payments::pay).filter(idempotentRoutes.operation("pay"))}.
 * The key comes from the key header, which the route requires; the operation runs LEASED.
 */
public final class IdempotentRoutes {

	private final ReactiveClaims claims;

	private final ReactiveExecutionFinisher finisher;

	private final OperationPolicies policies;

	private final HttpProblems problems;

	private final String keyHeader;

	private final int maxBodySize;

	IdempotentRoutes(ReactiveClaims claims, ReactiveExecutionFinisher finisher, OperationPolicies policies,
			HttpProblems problems, String keyHeader, int maxBodySize) {
		this.claims = claims;
		this.finisher = finisher;
		this.policies = policies;
		this.problems = problems;
		this.keyHeader = keyHeader;
		this.maxBodySize = maxBodySize;
	}

	/**
	 * Return the filter that guards a route as the given operation.
	 * @param operation the operation's name, under which its settings are read
	 * ({@code idempotency.operations.<name>.*})
	 * @return the filter
	 * @throws IllegalStateException if the operation is set to run ATOMIC, which WebFlux cannot do,
	 * or to be accepted, which functional routes cannot do
	 */
	public HandlerFilterFunction<ServerResponse, ServerResponse> operation(String operation) {
		OperationPolicy policy = this.policies.policyFor(operation, null);
		if (policy.mode() == IdempotencyMode.ATOMIC) {
			throw new IllegalStateException(WebFluxHandlersCheck.atomicRefusal("The route of operation '"
					+ operation + "'"));
		}
		if (policy.accepts()) {
			throw new IllegalStateException("The route of operation '" + operation + "' sets accept-after, which "
					+ "functional routes do not serve: guard an annotated handler method instead, or remove "
					+ "idempotency.operations." + operation + ".accept-after.");
		}
		return (request, next) -> guard(operation, request, next);
	}

	private Mono<ServerResponse> guard(String operation, ServerRequest request, HandlerFunction<ServerResponse> next) {
		ServerWebExchange exchange = request.exchange();
		return DataBufferUtils.join(exchange.getRequest().getBody(), this.maxBodySize)
			.map(IdempotentRoutes::bytes)
			.defaultIfEmpty(new byte[0])
			.map(Optional::of)
			.onErrorResume(DataBufferLimitException.class, (ex) -> Mono.just(Optional.empty()))
			.flatMap((body) -> body.isPresent() ? run(operation, request, next, body.get())
					: Mono.just(answer((target) -> this.finisher.refuse(target, new RequestBodyTooLargeException(
							"The request body is larger than the " + this.maxBodySize
									+ " bytes an idempotent request may have.")))));
	}

	private Mono<ServerResponse> run(String operation, ServerRequest request, HandlerFunction<ServerResponse> next,
			byte[] body) {
		ServerWebExchange exchange = request.exchange();
		BufferedRequest buffered = new BufferedRequest(exchange.getRequest(), body,
				exchange.getResponse().bufferFactory());
		CapturingResponse response = new CapturingResponse(exchange.getResponse());
		ReactiveIdempotencyExchange state = new ReactiveIdempotencyExchange(
				exchange.mutate().request(buffered).response(response).build(), buffered, response, null);
		ServerRequest replayable = ServerRequest.from(request).body(buffered.getBody()).build();
		RouteCall call = new RouteCall(state, operation, () -> next.handle(replayable));
		return this.claims.claim(call)
			.flatMap((publisher) -> Mono.from(publisher))
			.cast(ServerResponse.class)
			.map((handled) -> (ServerResponse) new SettledResponse(handled, state))
			.switchIfEmpty(Mono.fromSupplier(() -> answer((target) -> this.finisher.finish(state))))
			.onErrorResume((ex) -> Mono.just(answer((target) -> this.finisher.finishFailed(state, ex))))
			.doOnCancel(() -> state.cancel(this.claims));
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

	private static ServerResponse answer(Answering answering) {
		return new StarterResponse(answering);
	}

	/**
	 * One call of a guarded route.
	 */
	private final class RouteCall extends ReactiveCall {

		private final String operation;

		private final Start start;

		RouteCall(ReactiveIdempotencyExchange exchange, String operation, Start start) {
			super(exchange, IdempotentRoutes.this.keyHeader, IdempotentRoutes.this.problems, IdempotentRoutes.this.claims);
			this.operation = operation;
			this.start = start;
		}

		@Override
		public String operation() {
			return this.operation;
		}

		@Override
		public boolean required() {
			return true;
		}

		@Override
		public @Nullable IdempotencyMode mode() {
			return null;
		}

		@Override
		public Publisher<?> proceedUnguarded() {
			throw new IllegalStateException("A guarded route requires its key");
		}

		@Override
		@Nullable Object start() {
			return this.start.handle();
		}

		@Override
		public String missingKeyDetail() {
			return HttpProblems.missingKeyDetail(keyHeader(), false);
		}

	}

	/**
	 * Calls the route's handler.
	 */
	@FunctionalInterface
	private interface Start {

		Mono<ServerResponse> handle();

	}

	/**
	 * Writes a response of the starter's own, or of the finisher's, to an exchange.
	 */
	@FunctionalInterface
	private interface Answering {

		Mono<Void> writeTo(ServerWebExchange exchange);

	}

	/**
	 * The handler's response, written into the capture and settled before anything is sent.
	 */
	private final class SettledResponse implements ServerResponse {

		private final ServerResponse handled;

		private final ReactiveIdempotencyExchange state;

		SettledResponse(ServerResponse handled, ReactiveIdempotencyExchange state) {
			this.handled = handled;
			this.state = state;
		}

		@Override
		public HttpStatusCode statusCode() {
			return this.handled.statusCode();
		}

		@Override
		public HttpHeaders headers() {
			return this.handled.headers();
		}

		@Override
		public MultiValueMap<String, ResponseCookie> cookies() {
			return this.handled.cookies();
		}

		@Override
		public Mono<Void> writeTo(ServerWebExchange exchange, Context context) {
			ServerWebExchange captured = exchange.mutate().response(this.state.response()).build();
			return this.handled.writeTo(captured, context)
				.then(Mono.defer(() -> IdempotentRoutes.this.finisher.finish(this.state)))
				.onErrorResume((ex) -> IdempotentRoutes.this.finisher.finishFailed(this.state, ex))
				.doOnCancel(() -> this.state.cancel(IdempotentRoutes.this.claims));
		}

	}

	/**
	 * A response the starter answers with: a replay, a refusal, or what a failure settles to.
	 */
	private static final class StarterResponse implements ServerResponse {

		private final Answering answering;

		StarterResponse(Answering answering) {
			this.answering = answering;
		}

		@Override
		public HttpStatusCode statusCode() {
			return HttpStatus.OK;
		}

		@Override
		public HttpHeaders headers() {
			return new HttpHeaders();
		}

		@Override
		public MultiValueMap<String, ResponseCookie> cookies() {
			return new LinkedMultiValueMap<>();
		}

		@Override
		public Mono<Void> writeTo(ServerWebExchange exchange, Context context) {
			return this.answering.writeTo(exchange);
		}

	}

}
