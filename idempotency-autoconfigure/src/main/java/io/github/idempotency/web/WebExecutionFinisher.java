package io.github.idempotency.web;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.idempotency.core.Completion;
import io.github.idempotency.core.Decision;
import io.github.idempotency.core.Disposition;
import io.github.idempotency.core.Execution;
import io.github.idempotency.core.IdempotencyException;
import io.github.idempotency.core.IdempotencyKeyInProgressException;
import io.github.idempotency.core.IdempotencyLeaseLostException;
import io.github.idempotency.core.IdempotencyStoreUnavailableException;
import io.github.idempotency.core.OutcomeClassifier;
import io.github.idempotency.store.StoredResponse;

/**
 * Finishes the exchange of an {@code @Idempotent} handler once its response has left the filter
 * chain into the capture buffer: stores it for replay, or releases the key, before the client
 * sees anything; then sends it, or what replaces it.
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
	 * Finish an exchange whose handler chain returned.
	 * @param exchange the exchange
	 * @param request the request
	 * @throws IOException if the response cannot be sent
	 */
	void finish(WebIdempotencyExchange exchange, HttpServletRequest request) throws IOException {
		if (!exchange.finish()) {
			return;
		}
		CapturingResponse response = exchange.response();
		if (exchange.isReplay()) {
			sendReplay(response, exchange.replay());
			return;
		}
		Execution execution = exchange.execution();
		if (execution == null) {
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
		Completion completion;
		try {
			completion = execution.complete(stored, exchange.failure() != null);
		}
		catch (RuntimeException ex) {
			logger.warn("Could not store the response of {}; answering 503, and the key frees when its lease runs out",
					execution.key(), ex);
			sendProblem(response, request, new IdempotencyStoreUnavailableException(ex));
			return;
		}
		if (completion instanceof Completion.Stored) {
			response.sendCaptured();
		}
		else if (completion instanceof Completion.TakenOver) {
			logger.warn("{} ran past its lease and was taken over; its response is discarded", execution.key());
			sendProblem(response, request, new IdempotencyLeaseLostException(execution.policy().lease()));
		}
		else if (completion instanceof Completion.RolledBack) {
			sendProblem(response, request, new IdempotentTransactionRolledBackException());
		}
		else if (completion instanceof Completion.Superseded superseded) {
			if (superseded.decision() instanceof Decision.Replay replay) {
				sendReplay(response, replay.response());
			}
			else {
				sendProblem(response, request, new IdempotencyKeyInProgressException(
						((Decision.InProgress) superseded.decision()).retryAfter()));
			}
		}
	}

	/**
	 * Finish an exchange whose handler chain threw: its key is released (or, for a final
	 * exception type, its response stored) and the failure goes on to the container, which
	 * renders it. A request answered by a replay is sent its replay, whatever failed after the
	 * replay was decided.
	 * @param exchange the exchange
	 * @param request the request
	 * @param failure what the chain threw
	 * @return whether the failure was answered, so that it must not go on to the container
	 */
	boolean finishAfterFailure(WebIdempotencyExchange exchange, HttpServletRequest request, Throwable failure) {
		if (!exchange.finish()) {
			return false;
		}
		if (exchange.isReplay()) {
			try {
				sendReplay(exchange.response(), exchange.replay());
				logger.debug("A replay's handler chain failed after the replay was decided", failure);
				return true;
			}
			catch (IOException | RuntimeException ex) {
				return false;
			}
		}
		Execution execution = exchange.execution();
		if (execution != null) {
			exchange.recordFailure(failure);
			releaseQuietly(execution);
		}
		exchange.response().discard();
		return false;
	}

	/**
	 * Release the key of an exchange that ended without being finished.
	 * @param exchange the exchange
	 */
	static void releaseUnfinished(WebIdempotencyExchange exchange) {
		if (exchange.finish() && exchange.execution() != null) {
			logger.warn("{}: its asynchronous request ended without a response; its key is released",
					exchange.execution().key());
			releaseQuietly(exchange.execution());
		}
	}

	private static void sendReplay(CapturingResponse response, StoredResponse stored) throws IOException {
		Map<String, List<String>> headers = new LinkedHashMap<>(stored.headers());
		headers.put(IdempotencyResponses.REPLAYED_HEADER, List.of("true"));
		response.sendInstead(stored.status(), headers, stored.body());
	}

	private static void sendProblem(CapturingResponse response, HttpServletRequest request, IdempotencyException ex)
			throws IOException {
		Map<String, List<String>> headers = new LinkedHashMap<>();
		headers.put("Content-Type", List.of(IdempotencyResponses.PROBLEM_JSON));
		if (ex.getRetryAfter() != null) {
			headers.put("Retry-After", List.of(Long.toString(IdempotencyResponses.retryAfterSeconds(ex.getRetryAfter()))));
		}
		response.sendInstead(ex.getProblem().status(), headers, IdempotencyResponses.problemBody(ex, request));
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
