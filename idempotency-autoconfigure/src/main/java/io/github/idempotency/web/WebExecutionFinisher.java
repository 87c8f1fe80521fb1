package io.github.idempotency.web;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.idempotency.core.Disposition;
import io.github.idempotency.core.Execution;
import io.github.idempotency.core.IdempotencyLeaseLostException;
import io.github.idempotency.core.IdempotencyStoreUnavailableException;
import io.github.idempotency.core.OutcomeClassifier;
import io.github.idempotency.store.StoredResponse;

/**
 * Ends the execution of an {@code @Idempotent} handler once its response has been written into the
 * capture buffer: stores it for replay, or releases the key, before the client sees anything.
 */
public class WebExecutionFinisher {

	private static final Logger logger = LoggerFactory.getLogger(WebExecutionFinisher.class);

	private final OutcomeClassifier classifier;

	private final StoredHeaderPolicy headerPolicy;

	public WebExecutionFinisher(OutcomeClassifier classifier, StoredHeaderPolicy headerPolicy) {
		this.classifier = classifier;
		this.headerPolicy = headerPolicy;
	}

	/**
	 * Finish the execution of the exchange, if it has one still running.
	 * @param exchange the exchange
	 * @param request the request
	 * @param unresolved an exception no handler resolved, which the container will render as an
	 * error, or {@code null}
	 * @throws IOException if a problem body cannot be rendered
	 */
	void finish(WebIdempotencyExchange exchange, HttpServletRequest request, Throwable unresolved)
			throws IOException {
		Execution execution = exchange.takeExecutionToFinish();
		if (execution == null) {
			return;
		}
		CapturingResponse response = exchange.response();
		if (unresolved != null || request.isAsyncStarted()) {
			if (request.isAsyncStarted()) {
				logger.error("@Idempotent handlers must answer synchronously; {} started asynchronous processing, "
						+ "so its key is released and its response is not stored", execution.key());
			}
			releaseQuietly(execution);
			return;
		}
		if (response.isErrorSent() && response.capturedBody().length == 0) {
			response.setContentType(IdempotencyResponses.PROBLEM_JSON);
			response.getOutputStream()
				.write(IdempotencyResponses.statusProblem(response.getStatus(), request.getRequestURI()));
		}
		if (this.classifier.classify(response.getStatus(), exchange.failure()) == Disposition.RELEASE) {
			releaseQuietly(execution);
			return;
		}
		StoredResponse stored = new StoredResponse(response.getStatus(), this.headerPolicy.select(response),
				response.capturedBody());
		try {
			if (!execution.complete(stored, exchange.failure() != null)) {
				logger.warn("{} ran past its lease and was taken over; its response is discarded", execution.key());
				exchange.replaceResponse(new IdempotencyLeaseLostException(execution.policy().lease()));
			}
		}
		catch (RuntimeException ex) {
			logger.warn("Could not store the response of {}; answering 503, and the key frees when its lease runs out",
					execution.key(), ex);
			exchange.replaceResponse(new IdempotencyStoreUnavailableException(ex));
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
