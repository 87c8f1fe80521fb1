package io.github.idempotency.web.reactive;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.util.pattern.PathPattern;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.github.idempotency.IdempotencyException;
import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.IdempotencyKeyInProgressException;
import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.engine.IdempotentAttributes;
import io.github.idempotency.engine.IdempotentCall;
import io.github.idempotency.engine.IdempotentInvocationHandler;
import io.github.idempotency.engine.KeyExpressionEvaluator;
import io.github.idempotency.engine.OperationPolicy;
import io.github.idempotency.engine.SequenceNumber;
import io.github.idempotency.web.HttpProblems;
import io.github.idempotency.web.OperationStatusResponses;

/**
 * The entry point of {@code @Idempotent} Spring WebFlux handler methods. The call's result is
 * deferred: once subscribed, the key is claimed on a store thread, off the event loop, and the
 * handler's own publisher runs only when the claim holds; a replay or a refusal completes empty,
 * and the web filter sends the starter's answer instead of what the handler chain writes.
 */
final class ReactiveWebIdempotencyHandler implements IdempotentInvocationHandler, Ordered {

	private final ReactiveClaims claims;

	private final KeyExpressionEvaluator keyEvaluator;

	private final String keyHeader;

	private final HttpProblems problems;

	private final OperationStatusResponses statuses;

	ReactiveWebIdempotencyHandler(ReactiveClaims claims, KeyExpressionEvaluator keyEvaluator, String keyHeader,
			HttpProblems problems, OperationStatusResponses statuses) {
		this.claims = claims;
		this.keyEvaluator = keyEvaluator;
		this.keyHeader = keyHeader;
		this.problems = problems;
		this.statuses = statuses;
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
			return this.claims.claim(new HandlerCall(exchange, invocation, attributes));
		});
		if (Flux.class.isAssignableFrom(attributes.method().getReturnType())) {
			return decided.flatMapMany((publisher) -> publisher);
		}
		return decided.flatMap((publisher) -> Mono.from(publisher));
	}

	@Override
	public int getOrder() {
		return 0;
	}

	/**
	 * Return the operation of a handler's call: its annotation's, or the request method and the
	 * route template that matched.
	 * @param attributes the handler's attributes
	 * @param exchange the exchange, once mapped to the handler
	 * @return the operation's name
	 */
	static String operationName(IdempotentAttributes attributes, ServerWebExchange exchange) {
		if (!attributes.operation().isEmpty()) {
			return attributes.operation();
		}
		ServerHttpRequest request = exchange.getRequest();
		Object pattern = exchange.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
		String route = (pattern instanceof PathPattern pathPattern) ? pathPattern.getPatternString()
				: request.getPath().value();
		return request.getMethod().name() + " " + route;
	}

	/**
	 * One call of an {@code @Idempotent} WebFlux handler method.
	 */
	private final class HandlerCall extends ReactiveCall {

		private final MethodInvocation invocation;

		private final IdempotentAttributes attributes;

		private @Nullable OperationPolicy policy;

		HandlerCall(ReactiveIdempotencyExchange exchange, MethodInvocation invocation,
				IdempotentAttributes attributes) {
			super(exchange, ReactiveWebIdempotencyHandler.this.keyHeader, ReactiveWebIdempotencyHandler.this.problems,
					ReactiveWebIdempotencyHandler.this.claims);
			this.invocation = invocation;
			this.attributes = attributes;
		}

		@Override
		public String operation() {
			return operationName(this.attributes, exchange().exchange());
		}

		@Override
		public @Nullable String key() {
			if (this.attributes.keyExpression() == null) {
				return super.key();
			}
			return ReactiveWebIdempotencyHandler.this.keyEvaluator.key(this.attributes, this.invocation);
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
				throw new IllegalStateException(
						WebFluxHandlersCheck.atomicRefusal("@Idempotent " + this.attributes.method()));
			}
			this.policy = policy;
		}

		/**
		 * Run the claimed call; for an operation that sets accept-after, tell the web filter that
		 * its request may be answered {@code 202 Accepted} while the work goes on.
		 */
		@Override
		public Publisher<?> run(IdempotentCall call) throws Throwable {
			Publisher<?> work = super.run(call);
			if (this.policy != null && this.policy.accepts()) {
				IdempotencyKey key = call.key();
				exchange().acceptable(ReactiveWebIdempotencyHandler.this.statuses.accepted(key.operation(), key.key()),
						this.policy.acceptAfter());
			}
			return work;
		}

		/**
		 * A retry of an accepted request whose work goes on gets the same answer as the first.
		 */
		@Override
		public Publisher<?> refuse(IdempotencyException refusal) {
			if (refusal instanceof IdempotencyKeyInProgressException && this.policy != null
					&& this.policy.accepts()) {
				exchange().refuse(ReactiveWebIdempotencyHandler.this.statuses.accepted(operation(), key()));
				return Mono.empty();
			}
			return super.refuse(refusal);
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

		@Override
		@Nullable Object start() throws Throwable {
			return this.invocation.proceed();
		}

		@Override
		public String missingKeyDetail() {
			return HttpProblems.missingKeyDetail(keyHeader(), this.attributes.keyExpression() != null);
		}

	}

}
