package io.github.idempotency.web.reactive;

import java.lang.reflect.UndeclaredThrowableException;
import java.security.Principal;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import io.github.idempotency.IdempotencyStoreUnavailableException;
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

	private final IdempotentInvocation invocation;

	private final HttpProblems problems;

	private final StoreScheduler store;

	ReactiveClaims(IdempotentInvocation invocation, HttpProblems problems, StoreScheduler store) {
		this.invocation = invocation;
		this.problems = problems;
		this.store = store;
	}

	/**
	 * Claim the call's key, or decide its answer, with the request's principal.
	 * @param call the call
	 * @return the call's publisher, which runs on a thread that must not block, as on the event
	 * loop, and leaves the store's thread to the next claim
	 */
	Mono<Publisher<?>> claim(ReactiveCall call) {
		ReactiveIdempotencyExchange exchange = call.exchange();
		return Mono.deferContextual((context) -> principal(exchange).flatMap((principal) -> this.store
			.<Publisher<?>>claim(() -> claimOnStoreThread(call, principal.orElse(null),
					context.getOrDefault(OBSERVATION, null)))
			.onErrorResume(RejectedExecutionException.class, (ex) -> {
				exchange.refuse(this.problems.response(new IdempotencyStoreUnavailableException(ex), exchange.path()));
				return Mono.<Publisher<?>>just(Mono.empty());
			})))
			.publishOn(Schedulers.parallel());
	}

	StoreScheduler store() {
		return this.store;
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
