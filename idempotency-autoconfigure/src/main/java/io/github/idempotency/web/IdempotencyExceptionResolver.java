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
 * Answers the replays and refusals that the {@code @Idempotent} advice raises instead of running a
 * handler, ahead of the application's own exception handlers.
 */
public class IdempotencyExceptionResolver implements HandlerExceptionResolver, Ordered {

	private static final Logger logger = LoggerFactory.getLogger(IdempotencyExceptionResolver.class);

	@Override
	public ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response, Object handler,
			Exception ex) {
		try {
			if (ex instanceof IdempotentReplay replay) {
				IdempotencyResponses.writeReplay(response, replay.response());
				return new ModelAndView();
			}
			if (ex instanceof IdempotencyException refusal) {
				IdempotencyResponses.writeProblem(request, response, refusal);
				return new ModelAndView();
			}
		}
		catch (IOException writeFailure) {
			logger.debug("Could not write the idempotency response", writeFailure);
			return new ModelAndView();
		}
		return null;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE + 10;
	}

}
