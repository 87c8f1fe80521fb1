package io.github.idempotency.web;

import java.util.Locale;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.ModelAndView;

import io.github.idempotency.aop.IdempotentAttributeSource;
import io.github.idempotency.aop.IdempotentAttributes;
import io.github.idempotency.core.RequestBodyTooLargeException;

/**
 * Prepares requests mapped to an {@code @Idempotent} handler method: binds the method to the
 * exchange, starts capturing the response and buffers the body up to the configured size for the
 * fingerprint (413 above it, before anything is stored); after a replay, skips view rendering.
 * Finishes the exchange once the handler's response is complete, in the dispatch that completes
 * it, while its resources (an ATOMIC transaction, an open-in-view entity manager) are still bound:
 * this interceptor is ordered last, so it completes first.
 */
public class IdempotencyHandlerInterceptor implements HandlerInterceptor {

	private final IdempotentAttributeSource attributeSource;

	private final WebExecutionFinisher finisher;

	private final long maxBodySize;

	public IdempotencyHandlerInterceptor(IdempotentAttributeSource attributeSource, WebExecutionFinisher finisher,
			long maxBodySize) {
		this.attributeSource = attributeSource;
		this.finisher = finisher;
		this.maxBodySize = maxBodySize;
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
		if (!hasParameterBody(request)) {
			try {
				exchange.request().buffer(this.maxBodySize);
			}
			catch (RequestBodyTooLargeException ex) {
				IdempotencyResponses.writeProblem(request, response, ex);
				return false;
			}
		}
		exchange.bind(handlerMethod.getMethod(), attributes);
		return true;
	}

	/**
	 * A replayed request's handler was not run; the stored response replaces whatever view it
	 * would have rendered.
	 */
	@Override
	public void postHandle(HttpServletRequest request, HttpServletResponse response, Object handler,
			ModelAndView modelAndView) {
		WebIdempotencyExchange exchange = (WebIdempotencyExchange) request
			.getAttribute(WebIdempotencyExchange.ATTRIBUTE);
		if (modelAndView != null && exchange != null && exchange.isReplay()) {
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
		if (ex != null) {
			this.finisher.finishAfterFailure(exchange, request, ex);
		}
		else {
			this.finisher.finish(exchange, request);
		}
	}

	/**
	 * Form and multipart bodies are parsed into parameters and parts by the container, which must
	 * read them itself; they are fingerprinted from those.
	 */
	static boolean hasParameterBody(HttpServletRequest request) {
		String contentType = request.getContentType();
		if (contentType == null) {
			return false;
		}
		String type = contentType.toLowerCase(Locale.ROOT);
		return type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/");
	}

}
