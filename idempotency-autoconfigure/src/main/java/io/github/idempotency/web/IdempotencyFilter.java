package io.github.idempotency.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.filter.OncePerRequestFilter;

import io.github.idempotency.core.Disposition;
import io.github.idempotency.core.Execution;
import io.github.idempotency.core.IdempotencyLeaseLostException;
import io.github.idempotency.core.IdempotencyStoreUnavailableException;
import io.github.idempotency.core.OutcomeClassifier;
import io.github.idempotency.store.StoredResponse;

/**
 * Wraps every request so that an {@code @Idempotent} handler's response is captured, then, once
 * it has been written, stores it for replay or releases the key, before the client sees it.
 */
public class IdempotencyFilter extends OncePerRequestFilter {

	private static final Logger logger = LoggerFactory.getLogger(IdempotencyFilter.class);

	private final OutcomeClassifier classifier;

	private final StoredHeaderPolicy headerPolicy;

	public IdempotencyFilter(OutcomeClassifier classifier, StoredHeaderPolicy headerPolicy) {
		this.classifier = classifier;
		this.headerPolicy = headerPolicy;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		BufferedBodyRequest wrappedRequest = new BufferedBodyRequest(request);
		CapturingResponse wrappedResponse = new CapturingResponse(response);
		WebIdempotencyExchange exchange = new WebIdempotencyExchange(wrappedRequest, wrappedResponse);
		request.setAttribute(WebIdempotencyExchange.ATTRIBUTE, exchange);
		try {
			chain.doFilter(wrappedRequest, wrappedResponse);
		}
		catch (IOException | ServletException | RuntimeException | Error ex) {
			abandon(exchange, ex);
			throw ex;
		}
		finish(exchange, request);
	}

	private void finish(WebIdempotencyExchange exchange, HttpServletRequest request) throws IOException {
		Execution execution = exchange.execution();
		if (execution == null) {
			return;
		}
		CapturingResponse response = exchange.response();
		if (request.isAsyncStarted()) {
			logger.error("@Idempotent handlers must answer synchronously; {} started asynchronous processing, so its "
					+ "key is released and its response is not stored", execution.key());
			releaseQuietly(execution);
			response.sendCaptured();
			return;
		}
		if (response.isErrorSent() && response.capturedBody().length == 0) {
			response.setContentType(IdempotencyResponses.PROBLEM_JSON);
			response.getOutputStream()
				.write(IdempotencyResponses.statusProblem(response.getStatus(), request.getRequestURI()));
		}
		if (this.classifier.classify(response.getStatus(), exchange.failure()) == Disposition.RELEASE) {
			releaseQuietly(execution);
			response.sendCaptured();
			return;
		}
		StoredResponse stored = new StoredResponse(response.getStatus(), this.headerPolicy.select(response),
				response.capturedBody());
		boolean completed;
		try {
			completed = execution.complete(stored);
		}
		catch (RuntimeException ex) {
			logger.warn("Could not store the response of {}; answering 503, and the key frees when its lease runs out",
					execution.key(), ex);
			response.discard();
			IdempotencyResponses.writeProblem(request, response, new IdempotencyStoreUnavailableException(ex));
			return;
		}
		if (!completed) {
			logger.warn("{} ran past its lease and was taken over; its response is discarded", execution.key());
			response.discard();
			IdempotencyResponses.writeProblem(request, response,
					new IdempotencyLeaseLostException(execution.policy().lease()));
			return;
		}
		response.sendCaptured();
	}

	private void abandon(WebIdempotencyExchange exchange, Throwable failure) {
		Execution execution = exchange.execution();
		if (execution != null) {
			logger.debug("{} failed with an unhandled exception; releasing it", execution.key(), failure);
			releaseQuietly(execution);
			exchange.response().discard();
		}
	}

	private static void releaseQuietly(Execution execution) {
		try {
			execution.release();
		}
		catch (RuntimeException ex) {
			logger.warn("Could not release {}; it frees when its lease runs out", execution.key(), ex);
		}
	}

}
