package io.github.idempotency.web.servlet;

import java.time.Duration;
import java.util.Collections;
import java.util.Enumeration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.servlet.http.HttpServletRequest;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerMapping;

import io.github.idempotency.web.HttpProblems;
import io.github.idempotency.web.OperationStatusResponses;
import io.github.idempotency.FingerprintRequest;
import io.github.idempotency.IdempotencyException;
import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.IdempotencyKeyInProgressException;
import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.engine.CallAdapter;
import io.github.idempotency.IdempotencyKeys;
import io.github.idempotency.engine.IdempotentCall;
import io.github.idempotency.engine.IdempotentInvocation;
import io.github.idempotency.engine.OperationPolicy;
import io.github.idempotency.engine.SequenceNumber;
import io.github.idempotency.engine.IdempotentAttributes;
import io.github.idempotency.engine.IdempotentInvocationHandler;
import io.github.idempotency.engine.KeyExpressionEvaluator;
import io.github.idempotency.store.StoredResponse;

/**
 * The entry point of {@code @Idempotent} Spring MVC handler methods: the key comes from the key
 * header (or the key expression), the fingerprint from the request. A replay or a refusal is
 * returned as no value, which the starter's answer replaces, out of reach of the application's
 * exception handlers; the response itself is stored when the exchange finishes, once the
 * handler's response is complete.
 */
class WebIdempotencyHandler implements IdempotentInvocationHandler, Ordered {

	private final IdempotentInvocation invocation;

	private final KeyExpressionEvaluator keyEvaluator;

	private final String keyHeader;

	private final HttpProblems problems;

	private final AcceptedWorkers workers;

	private final OperationStatusResponses statuses;

	public WebIdempotencyHandler(IdempotentInvocation invocation, KeyExpressionEvaluator keyEvaluator,
			String keyHeader, HttpProblems problems, AcceptedWorkers workers, OperationStatusResponses statuses) {
		this.invocation = invocation;
		this.keyEvaluator = keyEvaluator;
		this.keyHeader = keyHeader;
		this.problems = problems;
		this.workers = workers;
		this.statuses = statuses;
	}

	/**
	 * A call is this request's handler call when it is the first call of the handler method the
	 * request was mapped to; any other {@code @Idempotent} call it makes is a bean-method call. A
	 * request handler called in a request that the starter's filter never saw (a MockMvc built
	 * without filters, say) is refused with a message, never run unguarded.
	 */
	@Override
	public boolean supports(MethodInvocation invocation, IdempotentAttributes attributes) {
		WebIdempotencyExchange exchange = WebIdempotencyExchange.current();
		if (exchange == null) {
			return isRequestHandlerInRequest(attributes);
		}
		Class<?> targetClass = (invocation.getThis() != null) ? AopUtils.getTargetClass(invocation.getThis()) : null;
		return exchange.isHandlerCall(AopUtils.getMostSpecificMethod(invocation.getMethod(), targetClass));
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation, IdempotentAttributes attributes) throws Throwable {
		WebIdempotencyExchange exchange = WebIdempotencyExchange.current();
		if (exchange == null) {
			throw new IllegalStateException("@Idempotent " + attributes.method() + " handles a request that the "
					+ "starter's IdempotencyFilter did not see, so its key and response cannot be read. In MockMvc "
					+ "tests, build MockMvc with @AutoConfigureMockMvc, or webAppContextSetup(context)"
					+ ".apply(IdempotencyMockMvc.idempotency()) from idempotency-test-support; standaloneSetup is "
					+ "not supported.");
		}
		exchange.markInvoked();
		return this.invocation.invoke(new HandlerCall(exchange, invocation, attributes));
	}

	private static boolean isRequestHandlerInRequest(IdempotentAttributes attributes) {
		return RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes
				&& AnnotatedElementUtils.hasAnnotation(attributes.method(), RequestMapping.class);
	}

	@Override
	public int getOrder() {
		return 0;
	}

	/**
	 * One call of an {@code @Idempotent} handler method.
	 */
	private final class HandlerCall implements CallAdapter<Object> {

		private final WebIdempotencyExchange exchange;

		private final MethodInvocation invocation;

		private final IdempotentAttributes attributes;

		private @Nullable OperationPolicy policy;

		HandlerCall(WebIdempotencyExchange exchange, MethodInvocation invocation, IdempotentAttributes attributes) {
			this.exchange = exchange;
			this.invocation = invocation;
			this.attributes = attributes;
		}

		@Override
		public String operation() {
			if (!this.attributes.operation().isEmpty()) {
				return this.attributes.operation();
			}
			HttpServletRequest request = this.exchange.request();
			Object pattern = request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
			return request.getMethod() + " " + ((pattern != null) ? pattern : request.getRequestURI());
		}

		@Override
		public @Nullable String key() {
			if (this.attributes.keyExpression() != null) {
				return WebIdempotencyHandler.this.keyEvaluator.key(this.attributes, this.invocation);
			}
			String header = WebIdempotencyHandler.this.keyHeader;
			Enumeration<String> values = this.exchange.request().getHeaders(header);
			return IdempotencyKeys.parseHeaderValues((values != null) ? Collections.list(values) : null, header);
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
						+ "expression, which is for bean methods: the fingerprint of a Spring MVC handler is its "
						+ "request.");
			}
			if (policy.mode() == IdempotencyMode.ATOMIC && AsyncReturnTypes.isAsync(this.attributes.method())) {
				throw new IllegalStateException("@Idempotent " + this.attributes.method() + " answers asynchronously, "
						+ "so it cannot run ATOMIC: its writes happen on another thread than its transaction. Use "
						+ "LEASED.");
			}
			if (policy.accepts() && AsyncReturnTypes.isAsync(this.attributes.method())) {
				throw new IllegalStateException("@Idempotent " + this.attributes.method() + " answers asynchronously, "
						+ "so its operation cannot set accept-after: return the value itself, and the starter runs "
						+ "it on its own threads.");
			}
			this.policy = policy;
		}

		@Override
		public FingerprintRequest fingerprint(String operation) throws Exception {
			BufferedBodyRequest request = this.exchange.request();
			return new FingerprintRequest(operation, request.getRequestURI(), request.getQueryString(),
					FingerprintBodies.contentType(request), FingerprintBodies.of(request));
		}

		@Override
		public @Nullable SequenceNumber sequence() {
			return WebIdempotencyHandler.this.keyEvaluator.sequence(this.attributes, this.invocation);
		}

		@Override
		public @Nullable Object proceedUnguarded() throws Throwable {
			return this.invocation.proceed();
		}

		@Override
		public @Nullable Object run(IdempotentCall call) throws Throwable {
			this.exchange.start(call);
			try {
				if (this.policy != null && this.policy.accepts()) {
					return runAccepted(call, this.policy.acceptAfter());
				}
				Object result = this.invocation.proceed();
				AsyncWork work = AsyncWork.of(result, this.attributes.method(), this.exchange.request(),
						call.context());
				if (work == null) {
					return result;
				}
				this.exchange.answeredAsynchronously(work, handlerMethod());
				return work.result();
			}
			catch (Throwable ex) {
				this.exchange.recordFailure(ex);
				throw ex;
			}
		}

		/**
		 * Run the handler on a worker and wait for it up to the operation's accept-after: done by
		 * then, its result answers the request as usual; otherwise the request is answered
		 * {@code 202 Accepted} and the work's result is stored when it ends, the key held until then.
		 */
		private @Nullable Object runAccepted(IdempotentCall call, Duration acceptAfter) throws Throwable {
			CompletableFuture<@Nullable Object> work = WebIdempotencyHandler.this.workers.run(this.invocation,
					call.context(), DetachedRequest.of(this.exchange.request()));
			try {
				return work.get(acceptAfter.toNanos(), TimeUnit.NANOSECONDS);
			}
			catch (ExecutionException ex) {
				throw (ex.getCause() != null) ? ex.getCause() : ex;
			}
			catch (TimeoutException | InterruptedException ex) {
				if (ex instanceof InterruptedException) {
					Thread.currentThread().interrupt();
				}
				IdempotencyKey key = call.key();
				this.exchange.accepted(AsyncWork.following(work), handlerMethod(),
						WebIdempotencyHandler.this.statuses.accepted(key.operation(), key.key()));
				return AsyncReturnTypes.noValue(this.attributes.method());
			}
		}

		private HandlerMethod handlerMethod() {
			Object bean = this.invocation.getThis();
			return new HandlerMethod(bean, AopUtils.getMostSpecificMethod(this.invocation.getMethod(),
					AopUtils.getTargetClass(bean)));
		}

		@Override
		public @Nullable Object replay(StoredResponse stored) {
			this.exchange.replay(stored);
			return AsyncReturnTypes.noValue(this.attributes.method());
		}

		/**
		 * Answered by the starter itself, as a replay is, so that no exception handler of the
		 * application turns it into something else.
		 */
		@Override
		public @Nullable Object refuse(IdempotencyException refusal) {
			if (refusal instanceof IdempotencyKeyInProgressException && this.policy != null && this.policy.accepts()) {
				// A retry of an accepted request whose work goes on: the same answer as the first.
				this.exchange.refuse(WebIdempotencyHandler.this.statuses.accepted(operation(), key()));
				return AsyncReturnTypes.noValue(this.attributes.method());
			}
			this.exchange.refuse(WebIdempotencyHandler.this.problems.response(refusal, this.exchange.request().getRequestURI()));
			return AsyncReturnTypes.noValue(this.attributes.method());
		}

		@Override
		public String missingKeyDetail() {
			return HttpProblems.missingKeyDetail(WebIdempotencyHandler.this.keyHeader,
					this.attributes.keyExpression() != null);
		}

		@Override
		public String mismatchDetail() {
			return HttpProblems.MISMATCH_DETAIL;
		}

	}

}
