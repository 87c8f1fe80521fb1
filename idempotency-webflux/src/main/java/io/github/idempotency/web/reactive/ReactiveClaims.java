package io.github.idempotency.web.reactive;

import java.lang.reflect.UndeclaredThrowableException;
import java.security.Principal;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import io.github.idempotency.Disposition;
import io.github.idempotency.IdempotencyStoreUnavailableException;
import io.github.idempotency.engine.Answer;
import io.github.idempotency.engine.IdempotentCall;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.engine.IdempotentInvocation;
import io.github.idempotency.web.HttpProblems;

/**
 * Claims the key of a reactive call on a store thread, off the event loop, and hands back what the
 * call answers: its own publisher once claimed, or an empty one when the starter answers instead.
 */
final class ReactiveClaims {

	private static final String ANONYMOUS = "AnonymousAuthenticationToken";

	/**
	 * Where Spring WebFlux keeps the request's observation in the Reactor context (Micrometer's
	 * {@code ObservationThreadLocalAccessor.KEY}).
	 */
	private static final String OBSERVATION = "micrometer.observation";

	private static final Executor PARALLEL = (task) -> Schedulers.parallel().schedule(task);

	private final IdempotentInvocation invocation;

	private final HttpProblems problems;

	private final StoreScheduler store;

	/**
	 * Whether the store is called without a thread of its own, decided once: for a non-blocking
	 * store; any other is called on the store's threads.
	 */
	private final boolean nonBlocking;

	ReactiveClaims(IdempotentInvocation invocation, HttpProblems problems, StoreScheduler store) {
		this.invocation = invocation;
		this.problems = problems;
		this.store = store;
		this.nonBlocking = invocation.nonBlocking();
	}

	/**
	 * Claim the call's key, or decide its answer, with the request's principal.
	 * @param call the call
	 * @return the call's publisher, which runs on a thread that must not block, as on the event
	 * loop, and leaves the store's thread to the next claim
	 */
	Mono<Publisher<?>> claim(ReactiveCall call) {
		ReactiveIdempotencyExchange exchange = call.exchange();
		return Mono.deferContextual((context) -> principal(exchange).flatMap((principal) -> claim(call,
				principal.orElse(null), context.getOrDefault(OBSERVATION, null))
			.onErrorResume(RejectedExecutionException.class, (ex) -> {
				exchange.refuse(this.problems.response(new IdempotencyStoreUnavailableException(ex), exchange.path()));
				return Mono.<Publisher<?>>just(Mono.empty());
			})))
			.publishOn(Schedulers.parallel());
	}

	private Mono<Publisher<?>> claim(ReactiveCall call, @Nullable String principal, @Nullable Object observation) {
		if (this.nonBlocking) {
			return this.store.claimWithoutThread(() -> claimWithoutThread(call, principal, observation));
		}
		return this.store.claim(() -> claimOnStoreThread(call, principal, observation));
	}

	/**
	 * Store the result of a claimed call, or release its key, and answer what its client gets.
	 * @param call the call
	 * @param stored its result as stored
	 * @param failure what it threw, or {@code null}
	 * @param disposition whether its result is final or transient
	 * @return what its client gets
	 */
	Mono<Answer> finish(IdempotentCall call, StoredResponse stored, @Nullable Throwable failure,
			Disposition disposition) {
		if (this.nonBlocking) {
			return StoreScheduler.settleWithoutThread(() -> call.finishAsync(stored, failure, disposition))
				.publishOn(Schedulers.parallel());
		}
		return this.store.settle(() -> call.finish(stored, failure, disposition));
	}

	/**
	 * Release the key of a claimed call.
	 * @param call the call
	 * @param failure why, as {@code FailureTypes} names it
	 * @return completion once released
	 */
	Mono<Void> release(IdempotentCall call, String failure) {
		if (this.nonBlocking) {
			return StoreScheduler.settleWithoutThread(() -> call.releaseAsync(failure));
		}
		return this.store.settle(() -> {
			call.release(failure);
			return true;
		}).then();
	}

	/**
	 * Claim on the calling thread, with the request's observation current, without blocking it;
	 * the call then runs, or is answered, on a parallel thread.
	 */
	private CompletionStage<Publisher<?>> claimWithoutThread(ReactiveCall call, @Nullable String principal,
			@Nullable Object observation) {
		try (Observation.Scope parent = (observation instanceof Observation request) ? request.openScope()
				: Observation.Scope.NOOP;
				CurrentRequest.Scope scope = new CurrentRequest(call.exchange().exchange(), principal).open()) {
			return this.invocation.invokeAsync(call, PARALLEL)
				.thenApply((result) -> (result != null) ? result : Mono.empty());
		}
		finally {
			IdempotentInvocation.clearDiagnosticContext();
		}
	}

	/**
	 * Claim on the store thread, with the request's observation current there, so that the
	 * {@code idempotency.request} observation is its child, as on Spring MVC.
	 */
	private Publisher<?> claimOnStoreThread(ReactiveCall call, @Nullable String principal,
			@Nullable Object observation) throws Exception {
		try (Observation.Scope parent = (observation instanceof Observation request) ? request.openScope()
				: Observation.Scope.NOOP;
				CurrentRequest.Scope scope = new CurrentRequest(call.exchange().exchange(), principal).open()) {
			Publisher<?> result = this.invocation.invoke(call);
			return (result != null) ? result : Mono.empty();
		}
		catch (Exception | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new UndeclaredThrowableException(ex);
		}
		finally {
			IdempotentInvocation.clearDiagnosticContext();
		}
	}

	private static Mono<Optional<String>> principal(ReactiveIdempotencyExchange exchange) {
		return principal(exchange.exchange());
	}

	/**
	 * Return the name of the request's authenticated principal, if there is one.
	 * @param exchange the exchange
	 * @return the name, or empty for an anonymous request
	 */
	static Mono<Optional<String>> principal(ServerWebExchange exchange) {
		return exchange
			.getPrincipal()
			.filter((principal) -> !principal.getClass().getSimpleName().equals(ANONYMOUS))
			.map(Principal::getName)
			.map(Optional::of)
			.defaultIfEmpty(Optional.empty());
	}

}
