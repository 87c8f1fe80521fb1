package io.github.idempotency.web.servlet;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.method.HandlerMethod;

import io.github.idempotency.web.StoredHeaderPolicy;
import io.github.idempotency.web.HttpProblems;
import io.github.idempotency.Disposition;
import io.github.idempotency.IdempotencyException;
import io.github.idempotency.OutcomeClassifier;
import io.github.idempotency.engine.Answer;
import io.github.idempotency.store.FailureTypes;
import io.github.idempotency.engine.IdempotentCall;
import io.github.idempotency.store.StoredResponse;

/**
 * Finishes the exchange of an {@code @Idempotent} handler once its response has left the filter
 * chain into the capture buffer: settles its call (store or release) before the client sees
 * anything, then sends what the call's answer says: the response, a replay or a problem.
 */
class WebExecutionFinisher {

	private static final Logger logger = LoggerFactory.getLogger(WebExecutionFinisher.class);

	private final OutcomeClassifier classifier;

	private final StoredHeaderPolicy headerPolicy;

	private final HttpProblems problems;

	private final LateResultRenderer lateResults;

	public WebExecutionFinisher(OutcomeClassifier classifier, StoredHeaderPolicy headerPolicy, HttpProblems problems,
			LateResultRenderer lateResults) {
		this.classifier = classifier;
		this.headerPolicy = headerPolicy;
		this.problems = problems;
		this.lateResults = lateResults;
	}

	/**
	 * Finish an exchange once its handler's response is complete, or once it failed: store the
	 * response or release the key, then send the response, or what replaces it. A replayed or
	 * refused exchange is sent the starter's answer, whatever failed after it was decided.
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
				send(response, refusal);
				exchange.markAnswered();
				return;
			}
			IdempotentCall call = exchange.call();
			if (call == null) {
				if (unresolved != null) {
					response.discard();
				}
				else {
					response.sendCaptured();
				}
				return;
			}
			StoredResponse accepted = exchange.accepted();
			if (accepted != null) {
				detach(exchange, request, call);
				send(response, accepted);
				return;
			}
			if (exchange.endedBeforeItsWork(unresolved)) {
				detach(exchange, request, call);
				if (unresolved != null) {
					response.discard();
				}
				else {
					response.sendCaptured();
				}
				return;
			}
			if (unresolved != null) {
				logger.debug("{} failed with {}; its key is released", call.key(), unresolved.toString());
				exchange.recordFailure(unresolved);
				call.release(FailureTypes.of(unresolved));
				response.discard();
				return;
			}
			Answer answer = settle(call, request, response, exchange.failure());
			send(response, request, answer);
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
	private void detach(WebIdempotencyExchange exchange, HttpServletRequest request, IdempotentCall call) {
		AsyncWork work = exchange.work();
		if (work.cancelIfNotStarted()) {
			logger.debug("{}: its request ended before its work started; its key is released", call.key());
			call.release(FailureTypes.of(new AsyncRequestEndedUnseenException()));
			return;
		}
		if (!work.observable()) {
			logger.warn("{}: its request ended before its asynchronous result, set by work the starter cannot "
					+ "follow; its key frees when its lease runs out", call.key());
			call.abandon();
			return;
		}
		logger.debug("{}: its request ended before its asynchronous work; the key is held until the work ends",
				call.key());
		DetachedRequest detached = DetachedRequest.of(request);
		HandlerMethod handler = exchange.handler();
		work.whenEnded((value, failure) -> finishLate(detached, handler, call, value, failure));
	}

	private void finishLate(DetachedRequest request, HandlerMethod handler, IdempotentCall call,
			@Nullable Object value, @Nullable Throwable failure) {
		CapturingResponse response;
		try {
			response = this.lateResults.render(request, handler, value, failure);
		}
		catch (Exception ex) {
			logger.warn("Could not render the late result of {}; its key frees when its lease runs out", call.key(),
					ex);
			call.abandon();
			return;
		}
		if (response == null) {
			logger.debug("{}: its late work failed with {}; its key is released", call.key(), failure);
			call.release(FailureTypes.of(failure));
			return;
		}
		try {
			Answer answer = settle(call, request, response, failure);
			logger.debug("{}: the late result of its work is settled: {}", call.key(), answer);
		}
		catch (IOException ex) {
			logger.warn("Could not store the late result of {}; its key frees when its lease runs out", call.key(), ex);
		}
	}

	/**
	 * Offer a handler's response to its call, which stores it, or releases the key when it is
	 * transient.
	 */
	private Answer settle(IdempotentCall call, HttpServletRequest request, CapturingResponse response,
			@Nullable Throwable failure) throws IOException {
		if (response.isErrorSent() && response.capturedBody().length == 0) {
			response.setContentType(HttpProblems.PROBLEM_JSON);
			response.getOutputStream()
				.write(HttpProblems.statusProblem(response.getStatus(), request.getRequestURI()));
		}
		Disposition disposition = this.classifier.classify(response.getStatus(), failure);
		StoredResponse stored = new StoredResponse(response.getStatus(), this.headerPolicy.select(response.getContentType(), response::getHeaders),
				response.capturedBody());
		return call.finish(stored, failure, disposition);
	}

	private void send(CapturingResponse response, HttpServletRequest request, Answer answer) throws IOException {
		if (answer instanceof Answer.Deliver) {
			response.sendCaptured();
		}
		else if (answer instanceof Answer.Replay replay) {
			sendReplay(response, replay.response());
		}
		else if (answer instanceof Answer.Refuse refuse) {
			sendProblem(response, request, refuse.refusal());
		}
		else {
			sendProblem(response, request, new IdempotentTransactionRolledBackException());
		}
	}

	private static void sendReplay(CapturingResponse response, StoredResponse stored) throws IOException {
		Map<String, List<String>> headers = new LinkedHashMap<>(stored.headers());
		headers.put(StoredHeaderPolicy.REPLAYED_HEADER, List.of("true"));
		response.sendInstead(stored.status(), headers, stored.body());
	}

	private void sendProblem(CapturingResponse response, HttpServletRequest request, IdempotencyException ex)
			throws IOException {
		send(response, this.problems.response(ex, request.getRequestURI()));
	}

	private static void send(CapturingResponse response, StoredResponse answer) throws IOException {
		response.sendInstead(answer.status(), answer.headers(), answer.body());
	}

}
