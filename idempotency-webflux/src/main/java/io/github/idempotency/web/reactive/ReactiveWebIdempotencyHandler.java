package io.github.idempotency.web.reactive;

import java.lang.reflect.UndeclaredThrowableException;
import java.security.Principal;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.util.pattern.PathPattern;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import io.github.idempotency.FingerprintRequest;
import io.github.idempotency.IdempotencyContext;
import io.github.idempotency.IdempotencyException;
import io.github.idempotency.IdempotencyKeys;
import io.github.idempotency.IdempotencyStoreUnavailableException;
import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.engine.CallAdapter;
import io.github.idempotency.engine.IdempotentAttributes;
import io.github.idempotency.engine.IdempotentCall;
import io.github.idempotency.engine.IdempotentInvocation;
import io.github.idempotency.engine.IdempotentInvocationHandler;
import io.github.idempotency.engine.KeyExpressionEvaluator;
import io.github.idempotency.engine.OperationPolicy;
import io.github.idempotency.engine.SequenceNumber;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.web.HttpProblems;

/**
 * The entry point of {@code @Idempotent} Spring WebFlux handler methods. The call's result is
 * deferred: once subscribed, the key is claimed on a store thread, off the event loop, and the
 * handler's own publisher runs only when the claim holds; a replay or a refusal completes empty,
 * and the web filter sends the starter's answer instead of what the handler chain writes.
 */
final class ReactiveWebIdempotencyHandler implements IdempotentInvocationHandler, Ordered {

	private static final String ANONYMOUS = "AnonymousAuthenticationToken";

	private final IdempotentInvocation invocation;

	private final KeyExpressionEvaluator keyEvaluator;

	private final String keyHeader;

	private final HttpProblems problems;

	private final StoreScheduler store;

	ReactiveWebIdempotencyHandler(IdempotentInvocation invocation, KeyExpressionEvaluator keyEvaluator,
			String keyHeader, HttpProblems problems, StoreScheduler store) {
		this.invocation = invocation;
		this.keyEvaluator = keyEvaluator;
		this.keyHeader = keyHeader;
		this.problems = problems;
		this.store = store;
	}

	@Override
	public boolean supports(MethodInvocation invocation, IdempotentAttributes attributes) {
		return AnnotatedElementUtils.hasAnnotation(attributes.method(), RequestMapping.class)
				&& ReactiveReturnTypes.isReactive(attributes.method());
	}

	@Override
	public Object invoke(MethodInvocation invocation, IdempotentAttributes attributes) {
		Mono<Publisher<?>> decided = Mono.deferContextual((context) -> {
			ReactiveIdempotencyExchange exchange = context.getOrDefault(ReactiveIdempotencyExchange.ATTRIBUTE, null);
			if (exchange == null || !exchange.takeHandlerCall(invocation.getMethod())) {
				return Mono.error(new IllegalStateException("@Idempotent " + attributes.method()
						+ " handles a request that the starter's web filter did not see, so its key and response "
						+ "cannot be read. Call it through the application's HTTP stack (WebTestClient.bindToServer "
						+ "or bindToApplicationContext), not bindToController."));
			}
			return principal(exchange).flatMap((principal) -> this.store
				.claim(() -> claimOnStoreThread(new HandlerCall(exchange, invocation, attributes), principal.orElse(null)))
				.onErrorResume(RejectedExecutionException.class, (ex) -> {
					exchange.refuse(this.problems.response(new IdempotencyStoreUnavailableException(ex), path(exchange)));
					return Mono.just(Mono.empty());
				}))
				// The handler's publisher runs on a thread that must not block, as on the event loop,
				// and leaves the store's thread to the next claim.
				.publishOn(Schedulers.parallel());
		});
		if (Flux.class.isAssignableFrom(attributes.method().getReturnType())) {
			return decided.flatMapMany((publisher) -> publisher);
		}
		return decided.flatMap((publisher) -> Mono.from(publisher));
	}

	private Publisher<?> claimOnStoreThread(HandlerCall call, @Nullable String principal) throws Exception {
		try (CurrentRequest.Scope scope = new CurrentRequest(call.exchange.exchange(), principal).open()) {
			Publisher<?> result = this.invocation.invoke(call);
			return (result != null) ? result : Mono.empty();
		}
		catch (Exception | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new UndeclaredThrowableException(ex);
		}
		finally {
			IdempotentInvocation.clearDiagnosticContext();
		}
	}

	private static Mono<Optional<String>> principal(ReactiveIdempotencyExchange exchange) {
		return exchange.exchange()
			.getPrincipal()
			.filter((principal) -> !principal.getClass().getSimpleName().equals(ANONYMOUS))
			.map(Principal::getName)
			.map(Optional::of)
			.defaultIfEmpty(Optional.empty());
	}

	static String path(ReactiveIdempotencyExchange exchange) {
		return exchange.request().getURI().getRawPath();
	}

	@Override
	public int getOrder() {
		return 0;
	}

	/**
	 * One call of an {@code @Idempotent} WebFlux handler method.
	 */
	private final class HandlerCall implements CallAdapter<Publisher<?>> {

		private final ReactiveIdempotencyExchange exchange;

		private final MethodInvocation invocation;

		private final IdempotentAttributes attributes;

		HandlerCall(ReactiveIdempotencyExchange exchange, MethodInvocation invocation,
				IdempotentAttributes attributes) {
			this.exchange = exchange;
			this.invocation = invocation;
			this.attributes = attributes;
		}

		@Override
		public String operation() {
			if (!this.attributes.operation().isEmpty()) {
				return this.attributes.operation();
			}
			ServerHttpRequest request = this.exchange.request();
			Object pattern = this.exchange.exchange().getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
			String route = (pattern instanceof PathPattern pathPattern) ? pathPattern.getPatternString()
					: request.getPath().value();
			return request.getMethod().name() + " " + route;
		}

		@Override
		public @Nullable String key() {
			if (this.attributes.keyExpression() != null) {
				String derived = ReactiveWebIdempotencyHandler.this.keyEvaluator.evaluate(this.attributes,
						this.invocation);
				return (derived != null) ? IdempotencyKeys.fromDerivedValue(derived) : null;
			}
			String header = ReactiveWebIdempotencyHandler.this.keyHeader;
			return IdempotencyKeys.parseHeaderValues(this.exchange.request().getHeaders().get(header), header);
		}

		@Override
		public boolean required() {
			return this.attributes.required();
		}

		@Override
		public @Nullable IdempotencyMode mode() {
			return this.attributes.mode();
		}

		@Override
		public void accept(OperationPolicy policy) {
			if (this.attributes.fingerprintExpression() != null) {
				throw new IllegalStateException("@Idempotent " + this.attributes.method() + " names a fingerprint "
						+ "expression, which is for bean methods: the fingerprint of a WebFlux handler is its request.");
			}
			if (policy.mode() == IdempotencyMode.ATOMIC) {
				throw new IllegalStateException(WebFluxHandlersCheck.atomicRefusal(this.attributes.method()));
			}
		}

		@Override
		public FingerprintRequest fingerprint(String operation) {
			BufferedRequest request = this.exchange.request();
			return new FingerprintRequest(operation, request.getURI().getRawPath(), request.getURI().getRawQuery(),
					ReactiveFingerprintBodies.contentType(request.getHeaders().getContentType()),
					ReactiveFingerprintBodies.of(request.getHeaders().getContentType(), request.body()));
		}

		@Override
		public @Nullable SequenceNumber sequence() {
			return ReactiveWebIdempotencyHandler.this.keyEvaluator.sequence(this.attributes, this.invocation);
		}

		@Override
		public Publisher<?> proceedUnguarded() throws Throwable {
			Object result = this.invocation.proceed();
			return (result != null) ? (Publisher<?>) result : Mono.empty();
		}

		/**
		 * Call the handler method, which assembles its publisher, with the call's context open;
		 * its work starts when the publisher is subscribed, with the context in the Reactor
		 * context, unless the request was cancelled first.
		 */
		@Override
		public Publisher<?> run(IdempotentCall call) throws Throwable {
			if (!this.exchange.claimed(call)) {
				return Mono.empty();
			}
			Object result;
			try {
				result = this.invocation.proceed();
			}
			catch (Throwable ex) {
				this.exchange.recordFailure(ex);
				throw ex;
			}
			IdempotencyContext context = call.context();
			if (result instanceof Mono<?> mono) {
				return Mono.defer(() -> this.exchange.startWork() ? mono : Mono.empty())
					.doOnError(this.exchange::recordFailure)
					.contextWrite((reactor) -> reactor.put(IdempotencyContext.class, context));
			}
			Publisher<?> publisher = (result != null) ? (Publisher<?>) result : Mono.empty();
			return Flux.defer(() -> this.exchange.startWork() ? publisher : Flux.empty())
				.doOnError(this.exchange::recordFailure)
				.contextWrite((reactor) -> reactor.put(IdempotencyContext.class, context));
		}

		@Override
		public Publisher<?> replay(StoredResponse stored) {
			this.exchange.replay(stored);
			return Mono.empty();
		}

		@Override
		public Publisher<?> refuse(IdempotencyException refusal) {
			this.exchange.refuse(ReactiveWebIdempotencyHandler.this.problems.response(refusal, path(this.exchange)));
			return Mono.empty();
		}

		@Override
		public String missingKeyDetail() {
			return HttpProblems.missingKeyDetail(ReactiveWebIdempotencyHandler.this.keyHeader,
					this.attributes.keyExpression() != null);
		}

		@Override
		public String mismatchDetail() {
			return HttpProblems.MISMATCH_DETAIL;
		}

	}

}
