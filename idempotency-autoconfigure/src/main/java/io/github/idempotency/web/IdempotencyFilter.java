package io.github.idempotency.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.filter.OncePerRequestFilter;

import io.github.idempotency.core.IdempotencyException;
import io.github.idempotency.core.IdempotencyMdc;

/**
 * Wraps every request so that the response of an {@code @Idempotent} handler is captured until
 * its result is stored, then sends it, or the problem that replaces it.
 */
public class IdempotencyFilter extends OncePerRequestFilter {

	private final WebExecutionFinisher finisher;

	public IdempotencyFilter(WebExecutionFinisher finisher) {
		this.finisher = finisher;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		BufferedBodyRequest wrappedRequest = new BufferedBodyRequest(request);
		CapturingResponse wrappedResponse = new CapturingResponse(response);
		WebIdempotencyExchange exchange = new WebIdempotencyExchange(wrappedRequest, wrappedResponse);
		request.setAttribute(WebIdempotencyExchange.ATTRIBUTE, exchange);
		try {
			filter(request, chain, exchange);
		}
		finally {
			IdempotencyMdc.clear();
		}
	}

	private void filter(HttpServletRequest request, FilterChain chain, WebIdempotencyExchange exchange)
			throws ServletException, IOException {
		BufferedBodyRequest wrappedRequest = exchange.request();
		CapturingResponse wrappedResponse = exchange.response();
		try {
			chain.doFilter(wrappedRequest, wrappedResponse);
		}
		catch (IOException | ServletException | RuntimeException | Error ex) {
			this.finisher.finish(exchange, request, ex);
			wrappedResponse.discard();
			throw ex;
		}
		this.finisher.finish(exchange, request, null);
		IdempotencyException replacement = exchange.replacement();
		if (replacement != null) {
			wrappedResponse.discard();
			IdempotencyResponses.writeProblem(request, wrappedResponse, replacement);
		}
		else {
			wrappedResponse.sendCaptured();
		}
	}

}
