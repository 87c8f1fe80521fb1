package io.github.idempotency.web.servlet;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.ModelAndView;

import io.github.idempotency.web.HttpProblems;
import io.github.idempotency.RequestBodyTooLargeException;
import io.github.idempotency.engine.IdempotentAttributeSource;
import io.github.idempotency.engine.IdempotentAttributes;

/**
 * Prepares requests mapped to an {@code @Idempotent} handler method: binds the method to the
 * exchange, starts capturing the response and buffers the body up to the configured size for the
 * fingerprint (413 above it, before anything is stored); after a replay, skips view rendering.
 * Finishes the exchange once the handler's response is complete, in the dispatch that completes
 * it, while its resources (an ATOMIC transaction, an open-in-view entity manager) are still bound:
 * this interceptor is ordered last, so it completes first.
 */
class IdempotencyHandlerInterceptor implements HandlerInterceptor {

	private final IdempotentAttributeSource attributeSource;

	private final WebExecutionFinisher finisher;

	private final long maxBodySize;

	private final HttpProblems problems;

	public IdempotencyHandlerInterceptor(IdempotentAttributeSource attributeSource, WebExecutionFinisher finisher,
			long maxBodySize, HttpProblems problems) {
		this.attributeSource = attributeSource;
		this.finisher = finisher;
		this.maxBodySize = maxBodySize;
		this.problems = problems;
	}

	@Override
	public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
			throws Exception {
		if (!(handler instanceof HandlerMethod handlerMethod)) {
			return true;
		}
		WebIdempotencyExchange exchange = (WebIdempotencyExchange) request
			.getAttribute(WebIdempotencyExchange.ATTRIBUTE);
		if (exchange == null || exchange.attributes() != null) {
			return true;
		}
		IdempotentAttributes attributes = this.attributeSource.find(handlerMethod.getMethod(),
				handlerMethod.getBeanType());
		if (attributes == null) {
			return true;
		}
		if (!FingerprintBodies.isParsedByTheContainer(request)) {
			try {
				exchange.request().buffer(this.maxBodySize);
			}
			catch (RequestBodyTooLargeException ex) {
				IdempotencyResponses.writeProblem(this.problems, request, response, ex);
				return false;
			}
		}
		exchange.bind(handlerMethod.getMethod(), attributes);
		return true;
	}

	/**
	 * A replayed or refused request's handler was not run; the starter's answer replaces whatever
	 * view it would have rendered.
	 */
	@Override
	public void postHandle(HttpServletRequest request, HttpServletResponse response, Object handler,
			ModelAndView modelAndView) {
		WebIdempotencyExchange exchange = (WebIdempotencyExchange) request
			.getAttribute(WebIdempotencyExchange.ATTRIBUTE);
		if (modelAndView != null && exchange != null && exchange.isAnsweredByTheStarter()) {
			modelAndView.clear();
		}
	}

	@Override
	public void afterCompletion(HttpServletRequest request, HttpServletResponse response, Object handler,
			Exception ex) throws Exception {
		WebIdempotencyExchange exchange = (WebIdempotencyExchange) request
			.getAttribute(WebIdempotencyExchange.ATTRIBUTE);
		if (exchange == null || exchange.attributes() == null) {
			return;
		}
		this.finisher.finish(exchange, request, ex);
	}

}
