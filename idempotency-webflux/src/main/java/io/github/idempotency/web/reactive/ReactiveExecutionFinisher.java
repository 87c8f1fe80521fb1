package io.github.idempotency.web.reactive;

import java.net.URI;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.ErrorResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

import io.github.idempotency.Disposition;
import io.github.idempotency.IdempotencyException;
import io.github.idempotency.OutcomeClassifier;
import io.github.idempotency.engine.Answer;
import io.github.idempotency.engine.IdempotentCall;
import io.github.idempotency.store.FailureTypes;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.web.HttpProblems;
import io.github.idempotency.web.StoredHeaderPolicy;

/**
 * Finishes the exchange of an {@code @Idempotent} WebFlux handler once its handler chain has
 * completed into the capture: settles its call (store or release), off the event loop, before the
 * client sees anything, then sends what the call's answer says: the response, a replay or a
 * problem.
 */
final class ReactiveExecutionFinisher {

	private static final Logger logger = LoggerFactory.getLogger(ReactiveExecutionFinisher.class);

	private static final Map<String, List<String>> REPLAYED = Map.of(StoredHeaderPolicy.REPLAYED_HEADER,
			List.of("true"));

	private final OutcomeClassifier classifier;

	private final StoredHeaderPolicy headerPolicy;

	private final HttpProblems problems;

	private final ReactiveClaims store;

	ReactiveExecutionFinisher(OutcomeClassifier classifier, StoredHeaderPolicy headerPolicy, HttpProblems problems,
			ReactiveClaims store) {
		this.classifier = classifier;
		this.headerPolicy = headerPolicy;
		this.problems = problems;
		this.store = store;
	}

	/**
	 * Finish an exchange whose handler chain completed.
	 * @param exchange the exchange
	 * @return completion of the response
	 */
	Mono<Void> finish(ReactiveIdempotencyExchange exchange) {
		CapturingResponse response = exchange.response();
		Mono<Void> answered = answeredByTheStarter(exchange);
		if (answered != null) {
			return answered;
		}
		IdempotentCall call = exchange.call();
		if (call == null || !exchange.takeSettlement()) {
			return response.sendCaptured(response.body());
		}
		int status = response.status();
		byte[] body = response.body();
		if (status >= 400 && body.length == 0) {
			body = HttpProblems.statusProblem(status, exchange.path());
			response.getHeaders().setContentType(MediaType.parseMediaType(HttpProblems.PROBLEM_JSON));
		}
		HttpHeaders headers = response.headers();
		MediaType contentType = headers.getContentType();
		StoredResponse stored = new StoredResponse(status,
				this.headerPolicy.select((contentType != null) ? contentType.toString() : null, headers::get), body);
		return settle(exchange, call, stored, null, exchange.failure());
	}

	/**
	 * Finish an exchange whose handler chain failed with an exception no handler resolved. A
	 * failure that is an HTTP answer of its own ({@link ErrorResponse}, such as
	 * {@code ResponseStatusException}) is rendered as its problem and settled as a response of its
	 * status; any other releases the key and goes on to the application's error handling.
	 * @param exchange the exchange
	 * @param failure the failure
	 * @return completion of the response, or the failure
	 */
	Mono<Void> finishFailed(ReactiveIdempotencyExchange exchange, Throwable failure) {
		Mono<Void> answered = answeredByTheStarter(exchange);
		if (answered != null) {
			logger.debug("The handler chain of a request answered by the starter failed", failure);
			return answered;
		}
		IdempotentCall call = exchange.call();
		if (call == null || !exchange.takeSettlement()) {
			return Mono.error(failure);
		}
		exchange.recordFailure(failure);
		if (failure instanceof ErrorResponse error) {
			StoredResponse rendered = rendered(error, exchange.path());
			StoredResponse stored = new StoredResponse(rendered.status(),
					this.headerPolicy.select(HttpProblems.PROBLEM_JSON, rendered.headers()::get), rendered.body());
			return settle(exchange, call, stored, rendered, failure);
		}
		logger.debug("{} failed with {}; its key is released", call.key(), failure.toString());
		return this.store.release(call, FailureTypes.of(failure)).then(Mono.error(failure));
	}

	/**
	 * Answer a request refused before its handler chain ran, such as one whose body is too large.
	 * @param exchange the exchange
	 * @param refusal the refusal
	 * @return completion of the response
	 */
	Mono<Void> refuse(ServerWebExchange exchange, IdempotencyException refusal) {
		StoredResponse problem = this.problems.response(refusal, exchange.getRequest().getURI().getRawPath());
		ServerHttpResponse response = exchange.getResponse();
		response.setStatusCode(HttpStatusCode.valueOf(problem.status()));
		problem.headers().forEach((name, values) -> response.getHeaders().put(name, List.copyOf(values)));
		response.getHeaders().setContentLength(problem.body().length);
		return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(problem.body())));
	}

	private @Nullable Mono<Void> answeredByTheStarter(ReactiveIdempotencyExchange exchange) {
		StoredResponse replay = exchange.replay();
		if (replay != null) {
			return exchange.response().sendInstead(replay, REPLAYED);
		}
		StoredResponse refusal = exchange.refusal();
		if (refusal != null) {
			return exchange.response().sendInstead(refusal, Map.of());
		}
		return null;
	}

	/**
	 * Offer the response to its call, which stores it or releases the key, then send the answer.
	 * @param sent what the client gets if the call delivers, or {@code null} for what was captured
	 */
	private Mono<Void> settle(ReactiveIdempotencyExchange exchange, IdempotentCall call, StoredResponse stored,
			@Nullable StoredResponse sent, @Nullable Throwable failure) {
		Disposition disposition = this.classifier.classify(stored.status(), failure);
		return this.store.finish(call, stored, failure, disposition)
			.flatMap((answer) -> send(exchange, stored, sent, answer));
	}

	private Mono<Void> send(ReactiveIdempotencyExchange exchange, StoredResponse stored,
			@Nullable StoredResponse sent, Answer answer) {
		CapturingResponse response = exchange.response();
		if (answer instanceof Answer.Deliver) {
			return (sent != null) ? response.sendInstead(sent, Map.of()) : response.sendCaptured(stored.body());
		}
		if (answer instanceof Answer.Replay replay) {
			return response.sendInstead(replay.response(), REPLAYED);
		}
		if (answer instanceof Answer.Refuse refuse) {
			return response.sendInstead(
					this.problems.response(refuse.refusal(), exchange.path()), Map.of());
		}
		throw new IllegalStateException("A reactive call has no transaction to roll back: " + answer);
	}

	private static StoredResponse rendered(ErrorResponse error, String path) {
		ProblemDetail problem = error.getBody();
		if (problem.getInstance() == null) {
			try {
				problem.setInstance(URI.create(path));
			}
			catch (IllegalArgumentException invalid) {
				// A request path that is no URI reference: the problem goes without one.
			}
		}
		HttpHeaders headers = new HttpHeaders();
		headers.putAll(error.getHeaders());
		headers.set(HttpHeaders.CONTENT_TYPE, HttpProblems.PROBLEM_JSON);
		Map<String, List<String>> stored = new java.util.LinkedHashMap<>();
		headers.forEach(stored::put);
		return new StoredResponse(error.getStatusCode().value(), stored, HttpProblems.json(problem));
	}

}
