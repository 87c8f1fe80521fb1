package io.github.idempotency.web.servlet;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

/**
 * Sees every exception of a handler first and records it on the request's exchange, so that the
 * result is classified by it even where the handler failed asynchronously; it resolves nothing.
 */
class IdempotencyExceptionResolver implements HandlerExceptionResolver, Ordered {

	@Override
	public @Nullable ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response,
			@Nullable Object handler, Exception ex) {
		WebIdempotencyExchange exchange = (WebIdempotencyExchange) request
			.getAttribute(WebIdempotencyExchange.ATTRIBUTE);
		if (exchange != null && exchange.call() != null) {
			exchange.recordFailure(ex);
		}
		return null;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
