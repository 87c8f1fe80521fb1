package io.github.idempotency.web;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.Map;
import java.util.TreeMap;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;

import org.aopalliance.intercept.MethodInvocation;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerMapping;

import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.aop.IdempotentAttributes;
import io.github.idempotency.aop.IdempotentInvocationHandler;
import io.github.idempotency.aop.KeyExpressionEvaluator;
import io.github.idempotency.core.Decision;
import io.github.idempotency.core.Execution;
import io.github.idempotency.core.FingerprintRequest;
import io.github.idempotency.core.IdempotencyContext;
import io.github.idempotency.core.IdempotencyEngine;
import io.github.idempotency.core.IdempotencyException;
import io.github.idempotency.core.IdempotencyKey;
import io.github.idempotency.core.IdempotencyKeyInProgressException;
import io.github.idempotency.core.IdempotencyKeyMismatchException;
import io.github.idempotency.core.IdempotencyKeys;
import io.github.idempotency.core.IdempotencyMdc;
import io.github.idempotency.core.InvalidIdempotencyKeyException;
import io.github.idempotency.core.MissingIdempotencyKeyException;
import io.github.idempotency.core.OperationPolicies;
import io.github.idempotency.core.OperationPolicy;
import io.github.idempotency.core.RequestFingerprinter;
import io.github.idempotency.core.TenantResolver;

/**
 * Runs an {@code @Idempotent} Spring MVC handler method: resolves its key, tenant and
 * fingerprint, then runs it, or answers with a replay or a problem instead. The response itself
 * is stored by {@link IdempotencyFilter} once it has been written.
 */
public class WebIdempotencyHandler implements IdempotentInvocationHandler, Ordered {

	private final IdempotencyEngine engine;

	private final OperationPolicies policies;

	private final TenantResolver tenantResolver;

	private final RequestFingerprinter fingerprinter;

	private final KeyExpressionEvaluator keyEvaluator;

	private final String keyHeader;

	public WebIdempotencyHandler(IdempotencyEngine engine, OperationPolicies policies, TenantResolver tenantResolver,
			RequestFingerprinter fingerprinter, KeyExpressionEvaluator keyEvaluator, String keyHeader) {
		this.engine = engine;
		this.policies = policies;
		this.tenantResolver = tenantResolver;
		this.fingerprinter = fingerprinter;
		this.keyEvaluator = keyEvaluator;
		this.keyHeader = keyHeader;
	}

	@Override
	public boolean supports(MethodInvocation invocation, IdempotentAttributes attributes) {
		WebIdempotencyExchange exchange = WebIdempotencyExchange.current();
		return exchange != null && exchange.isHandlerCall(invocation.getMethod());
	}

	@Override
	public Object invoke(MethodInvocation invocation, IdempotentAttributes attributes) throws Throwable {
		WebIdempotencyExchange exchange = WebIdempotencyExchange.current();
		exchange.markInvoked();
		HttpServletRequest request = exchange.request();
		String operation = operationName(attributes, request);
		IdempotencyMdc.putOperation(operation);
		String key;
		try {
			key = resolveKey(attributes, invocation, request);
		}
		catch (IdempotencyException ex) {
			this.engine.reportMissingKey(operation);
			throw ex;
		}
		if (key == null) {
			if (!attributes.required()) {
				return invocation.proceed();
			}
			this.engine.reportMissingKey(operation);
			throw new MissingIdempotencyKeyException((attributes.keyExpression() != null)
					? "This operation derives its idempotency key from the request, and this request yields none."
					: "This operation requires an " + this.keyHeader + " header.");
		}
		IdempotencyMdc.putKey(key);
		IdempotencyKey scopedKey = new IdempotencyKey(this.tenantResolver.resolveTenant(), operation, key);
		OperationPolicy policy = this.policies.policyFor(operation, attributes.mode());
		if (policy.mode() == IdempotencyMode.ATOMIC && AsyncReturnTypes.isAsync(attributes.method())) {
			throw new IllegalStateException("@Idempotent " + attributes.method() + " answers asynchronously, so it "
					+ "cannot run ATOMIC: its writes happen on another thread than its transaction. Use LEASED.");
		}
		String fingerprint = this.fingerprinter.fingerprint(new FingerprintRequest(operation,
				request.getRequestURI(), request.getQueryString(), request.getContentType(), fingerprintBody(exchange)));
		Decision decision = this.engine.begin(scopedKey, fingerprint, policy);
		if (decision instanceof Decision.Proceed proceed) {
			Execution execution = proceed.execution();
			exchange.start(execution);
			Object result;
			try (IdempotencyContext.Scope scope = execution.context().open()) {
				result = invocation.proceed();
			}
			catch (Throwable ex) {
				exchange.recordFailure(ex);
				throw ex;
			}
			AsyncReturnTypes.propagateContext(request, execution, result);
			return result;
		}
		if (decision instanceof Decision.Replay replay) {
			exchange.replay(replay.response());
			return AsyncReturnTypes.noValue(attributes.method());
		}
		if (decision instanceof Decision.InProgress inProgress) {
			throw new IdempotencyKeyInProgressException(inProgress.retryAfter());
		}
		throw new IdempotencyKeyMismatchException(
				"This idempotency key was already used for a different request; use a new key for a new request.");
	}

	@Override
	public int getOrder() {
		return 0;
	}

	private String resolveKey(IdempotentAttributes attributes, MethodInvocation invocation,
			HttpServletRequest request) {
		if (attributes.keyExpression() != null) {
			String derived = this.keyEvaluator.evaluate(attributes, invocation);
			return (derived != null) ? IdempotencyKeys.fromDerivedValue(derived) : null;
		}
		Enumeration<String> values = request.getHeaders(this.keyHeader);
		if (values == null || !values.hasMoreElements()) {
			return null;
		}
		String raw = values.nextElement();
		if (values.hasMoreElements()) {
			throw new InvalidIdempotencyKeyException("The " + this.keyHeader + " header must be sent only once.");
		}
		return IdempotencyKeys.parseHeader(raw);
	}

	private static String operationName(IdempotentAttributes attributes, HttpServletRequest request) {
		if (!attributes.operation().isEmpty()) {
			return attributes.operation();
		}
		Object pattern = request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
		return request.getMethod() + " " + ((pattern != null) ? pattern : request.getRequestURI());
	}

	private static byte[] fingerprintBody(WebIdempotencyExchange exchange) throws IOException, ServletException {
		if (!IdempotencyHandlerInterceptor.hasParameterBody(exchange.request())) {
			return exchange.request().body();
		}
		if (MultipartBodies.isMultipart(exchange.request())) {
			return MultipartBodies.canonical(exchange.request());
		}
		Map<String, String[]> parameters = new TreeMap<>(exchange.request().getParameterMap());
		StringBuilder canonical = new StringBuilder();
		parameters.forEach((name, values) -> {
			for (String value : values) {
				canonical.append(URLEncoder.encode(name, StandardCharsets.UTF_8))
					.append('=')
					.append(URLEncoder.encode(value, StandardCharsets.UTF_8))
					.append('&');
			}
		});
		return canonical.toString().getBytes(StandardCharsets.UTF_8);
	}

}
