package io.github.idempotency.web.servlet;

import java.io.IOException;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.filter.OncePerRequestFilter;

import io.github.idempotency.engine.IdempotentInvocation;

/**
 * Wraps every request, as the innermost filter, so that the response of an {@code @Idempotent}
 * handler is captured exactly as the handler writes it, until the handler interceptor has stored
 * or released its result; finishes what the interceptor could not, such as a request whose
 * dispatch failed before it, or an asynchronous request that ended without a last dispatch.
 */
class IdempotencyFilter extends OncePerRequestFilter {

	private final WebExecutionFinisher finisher;

	public IdempotencyFilter(WebExecutionFinisher finisher) {
		this.finisher = finisher;
	}

	/**
	 * An asynchronous handler's response is written in a later dispatch, where it is finished.
	 */
	@Override
	protected boolean shouldNotFilterAsyncDispatch() {
		return false;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		WebIdempotencyExchange exchange = (WebIdempotencyExchange) request
			.getAttribute(WebIdempotencyExchange.ATTRIBUTE);
		if (exchange == null || !isAsyncDispatch(request)) {
			exchange = new WebIdempotencyExchange(new BufferedBodyRequest(request), new CapturingResponse(response));
			request.setAttribute(WebIdempotencyExchange.ATTRIBUTE, exchange);
		}
		try {
			// The later dispatch of an asynchronous request continues with this exchange's
			// wrappers: outer filters may hand down their own wrapper instead of the response
			// the request was started with.
			chain.doFilter(exchange.request(), exchange.response());
		}
		catch (IOException | ServletException | RuntimeException | Error ex) {
			if (exchange.answered()) {
				logger.debug("The handler chain of a replayed request failed after its replay was sent", ex);
				return;
			}
			exchange.response().discard();
			throw ex;
		}
		finally {
			IdempotentInvocation.clearDiagnosticContext();
		}
		if (request.isAsyncStarted()) {
			finishWhenAsyncEndsUnseen(request, exchange);
		}
	}

	/**
	 * Note when an asynchronous request times out or fails before its work answers it, and finish
	 * one that ends without the dispatch that finishes it, such as one whose client went away; a
	 * finished exchange is not finished again.
	 */
	private void finishWhenAsyncEndsUnseen(HttpServletRequest request, WebIdempotencyExchange exchange) {
		if (exchange.call() == null) {
			return;
		}
		request.getAsyncContext().addListener(new AsyncListener() {

			@Override
			public void onComplete(AsyncEvent event) {
				IdempotencyFilter.this.finisher.finish(exchange, (HttpServletRequest) event.getSuppliedRequest(),
						new AsyncRequestEndedUnseenException());
			}

			@Override
			public void onTimeout(AsyncEvent event) {
				exchange.markEndedEarly();
			}

			@Override
			public void onError(AsyncEvent event) {
				exchange.markEndedEarly();
			}

			@Override
			public void onStartAsync(AsyncEvent event) {
			}

		});
	}

}
