package io.github.idempotency.web;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

import io.github.idempotency.core.IdempotencyException;

/**
 * Sees every exception of a handler first: records it on the request's exchange, so that the
 * result is classified by it even where the handler failed asynchronously, and answers the
 * refusals of the {@code @Idempotent} advice as problems.
 */
public class IdempotencyExceptionResolver implements HandlerExceptionResolver, Ordered {

	private static final Logger logger = LoggerFactory.getLogger(IdempotencyExceptionResolver.class);

	@Override
	public ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response, Object handler,
			Exception ex) {
		WebIdempotencyExchange exchange = (WebIdempotencyExchange) request
			.getAttribute(WebIdempotencyExchange.ATTRIBUTE);
		if (exchange != null && exchange.execution() != null) {
			exchange.recordFailure(ex);
		}
		if (ex instanceof IdempotencyException refusal) {
			try {
				IdempotencyResponses.writeProblem(request, response, refusal);
			}
			catch (IOException writeFailure) {
				logger.debug("Could not write the idempotency problem", writeFailure);
			}
			return new ModelAndView();
		}
		return null;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE + 10;
	}

}
