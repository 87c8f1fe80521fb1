package io.github.idempotency.internal.web;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.method.HandlerMethod;

import io.github.idempotency.Disposition;
import io.github.idempotency.IdempotencyException;
import io.github.idempotency.IdempotencyKeyInProgressException;
import io.github.idempotency.IdempotencyStoreUnavailableException;
import io.github.idempotency.OutcomeClassifier;
import io.github.idempotency.internal.engine.Completion;
import io.github.idempotency.internal.engine.Decision;
import io.github.idempotency.internal.engine.Execution;
import io.github.idempotency.internal.engine.FailureTypes;
import io.github.idempotency.internal.engine.IdempotencyLeaseLostException;
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

	private final WebProblems problems;

	private final LateResultRenderer lateResults;

	public WebExecutionFinisher(OutcomeClassifier classifier, StoredHeaderPolicy headerPolicy, WebProblems problems,
			LateResultRenderer lateResults) {
		this.classifier = classifier;
		this.headerPolicy = headerPolicy;
		this.problems = problems;
		this.lateResults = lateResults;
	}

	/**
	 * Finish an exchange once its handler's response is complete, or once it failed: store the
	 * response or release the key, then send the response, or what replaces it. A replayed
	 * exchange is sent its stored response, whatever failed after the replay was decided.
	 * @param exchange the exchange
	 * @param request the request
	 * @param unresolved an exception no handler resolved, which the container renders, or
	 * {@code null}
	 */
	void finish(WebIdempotencyExchange exchange, HttpServletRequest request, @Nullable Throwable unresolved) {
		if (!exchange.finish()) {
			return;
		}
		CapturingResponse response = exchange.response();
		try {
			if (exchange.isReplay()) {
				sendReplay(response, exchange.replay());
				exchange.markAnswered();
				return;
			}
			StoredResponse refusal = exchange.refusal();
			if (refusal != null) {
				response.sendInstead(refusal.status(), refusal.headers(), refusal.body());
				exchange.markAnswered();
				return;
			}
			Execution execution = exchange.execution();
			if (execution != null && exchange.endedBeforeItsWork(unresolved)) {
				detach(exchange, request, execution);
				if (unresolved != null) {
					response.discard();
				}
				else {
					response.sendCaptured();
				}
				return;
			}
			if (unresolved != null) {
				if (execution != null) {
					logger.debug("{} failed with {}; its key is released", execution.key(), unresolved.toString());
					exchange.recordFailure(unresolved);
					releaseQuietly(execution, FailureTypes.of(unresolved));
				}
				response.discard();
				return;
			}
			if (execution == null) {
				response.sendCaptured();
				return;
			}
			store(exchange, request, execution, response);
		}
		catch (IOException ex) {
			logger.debug("Could not send the response of an idempotent request", ex);
		}
	}

	/**
	 * The request ended (a timeout, a client gone) while its asynchronous work may still run: the
	 * key stays claimed, its lease renewed, until the work ends; then its result is rendered and
	 * stored, or the key released. Work that never started is cancelled and its key released; work
	 * whose end cannot be seen leaves its key to its lease.
	 */
	private void detach(WebIdempotencyExchange exchange, HttpServletRequest request, Execution execution) {
		AsyncWork work = exchange.work();
		if (work.cancelIfNotStarted()) {
			logger.debug("{}: its request ended before its work started; its key is released", execution.key());
			releaseQuietly(execution, FailureTypes.of(new AsyncRequestEndedUnseenException()));
			return;
		}
		if (!work.observable()) {
			logger.warn("{}: its request ended before its asynchronous result, set by work the starter cannot "
					+ "follow; its key frees when its lease runs out", execution.key());
			execution.abandon();
			return;
		}
		logger.debug("{}: its request ended before its asynchronous work; the key is held until the work ends",
				execution.key());
		DetachedRequest detached = DetachedRequest.of(request);
		HandlerMethod handler = exchange.handler();
		work.whenEnded((value, failure) -> finishLate(detached, handler, execution, value, failure));
	}

	private void finishLate(DetachedRequest request, HandlerMethod handler, Execution execution,
			@Nullable Object value, @Nullable Throwable failure) {
		CapturingResponse response;
		try {
			response = this.lateResults.render(request, handler, value, failure);
		}
		catch (Exception ex) {
			logger.warn("Could not render the late result of {}; its key frees when its lease runs out",
					execution.key(), ex);
			execution.abandon();
			return;
		}
		if (response == null) {
			logger.debug("{}: its late work failed with {}; its key is released", execution.key(), failure);
			releaseQuietly(execution, FailureTypes.of(failure));
			return;
		}
		try {
			settle(execution, request, response, failure);
			logger.debug("{}: the late result of its work is settled", execution.key());
		}
		catch (RuntimeException | IOException ex) {
			logger.warn("Could not store the late result of {}; its key frees when its lease runs out",
					execution.key(), ex);
		}
	}

	private void store(WebIdempotencyExchange exchange, HttpServletRequest request, Execution execution,
			CapturingResponse response) throws IOException {
		Completion completion;
		try {
			completion = settle(execution, request, response, exchange.failure());
		}
		catch (RuntimeException ex) {
			logger.warn("Could not store the response of {}; answering 503, and the key frees when its lease runs out",
					execution.key(), ex);
			sendProblem(response, request, new IdempotencyStoreUnavailableException(ex));
			return;
		}
		if (completion == null) {
			response.sendCaptured();
			return;
		}
		answer(request, execution, response, completion);
	}

	/**
	 * Store a handler's response, or release its key when it is transient.
	 * @return how the completion ended, or {@code null} if the key was released
	 */
	private @Nullable Completion settle(Execution execution, HttpServletRequest request, CapturingResponse response,
			@Nullable Throwable failure) throws IOException {
		if (response.isErrorSent() && response.capturedBody().length == 0) {
			response.setContentType(IdempotencyResponses.PROBLEM_JSON);
			response.getOutputStream()
				.write(IdempotencyResponses.statusProblem(response.getStatus(), request.getRequestURI()));
		}
		if (this.classifier.classify(response.getStatus(), failure) == Disposition.RELEASE) {
			releaseQuietly(execution, FailureTypes.of(response.getStatus(), failure));
			return null;
		}
		StoredResponse stored = new StoredResponse(response.getStatus(), this.headerPolicy.select(response),
				response.capturedBody());
		return execution.complete(stored, failure != null);
	}

	private void answer(HttpServletRequest request, Execution execution, CapturingResponse response,
			Completion completion) throws IOException {
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

	private static void sendReplay(CapturingResponse response, StoredResponse stored) throws IOException {
		Map<String, List<String>> headers = new LinkedHashMap<>(stored.headers());
		headers.put(IdempotencyResponses.REPLAYED_HEADER, List.of("true"));
		response.sendInstead(stored.status(), headers, stored.body());
	}

	private void sendProblem(CapturingResponse response, HttpServletRequest request, IdempotencyException ex)
			throws IOException {
		StoredResponse problem = this.problems.response(ex, request);
		response.sendInstead(problem.status(), problem.headers(), problem.body());
	}

	private static void releaseQuietly(Execution execution, String failure) {
		try {
			execution.release(failure);
		}
		catch (RuntimeException ex) {
			logger.warn("Could not release {}; it frees when its lease runs out", execution.key(), ex);
		}
	}

}
