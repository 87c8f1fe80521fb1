package io.github.idempotency.web.reactive;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;

import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

import io.github.idempotency.IdempotencyException;
import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.IdempotencyStoreUnavailableException;
import io.github.idempotency.TenantResolver;
import io.github.idempotency.engine.IdempotencyProperties;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.web.HttpProblems;
import io.github.idempotency.web.OperationStatusResponses;

/**
 * Serves the status of an accepted request at the link its {@code 202 Accepted} gave, on a store
 * thread off the event loop: its state while its work runs, then its stored response. The record
 * is looked up in the tenant (and so the principal) of the client that asks, exactly as a retry of
 * the request would be.
 */
final class ReactiveOperationStatusEndpoint implements HandlerFunction<ServerResponse> {

	private final IdempotencyStore store;

	private final TenantResolver tenants;

	private final IdempotencyProperties properties;

	private final OperationStatusResponses responses;

	private final HttpProblems problems;

	private final StoreScheduler threads;

	ReactiveOperationStatusEndpoint(IdempotencyStore store, TenantResolver tenants, IdempotencyProperties properties,
			OperationStatusResponses responses, HttpProblems problems, StoreScheduler threads) {
		this.store = store;
		this.tenants = tenants;
		this.properties = properties;
		this.responses = responses;
		this.problems = problems;
		this.threads = threads;
	}

	RouterFunction<ServerResponse> routes() {
		return RouterFunctions.route(RequestPredicates.GET(this.responses.statusPath() + "/{id}"), this);
	}

	@Override
	public Mono<ServerResponse> handle(ServerRequest request) {
		String path = request.path();
		OperationStatusResponses.Target target = OperationStatusResponses.target(request.pathVariable("id"));
		if (target == null || !OperationStatusResponses.accepts(this.properties, target.operation())) {
			return send(this.responses.notFound(path));
		}
		return ReactiveClaims.principal(request.exchange())
			.flatMap((principal) -> this.threads.claim(() -> find(request, principal, target)))
			.map((record) -> record.map((found) -> this.responses.status(found, Instant.now()))
				.orElseGet(() -> this.responses.notFound(path)))
			.onErrorResume(IdempotencyException.class, (ex) -> Mono.just(this.problems.response(ex, path)))
			.onErrorResume(RejectedExecutionException.class, (ex) -> Mono
				.just(this.problems.response(new IdempotencyStoreUnavailableException(ex), path)))
			.onErrorResume(IllegalArgumentException.class, (ex) -> Mono.just(this.responses.notFound(path)))
			.flatMap(ReactiveOperationStatusEndpoint::send);
	}

	private Optional<IdempotencyRecord> find(ServerRequest request, Optional<String> principal,
			OperationStatusResponses.Target target) {
		try (CurrentRequest.Scope scope = new CurrentRequest(request.exchange(), principal.orElse(null)).open()) {
			return this.store
				.find(new IdempotencyKey(this.tenants.resolveTenant(), target.operation(), target.key()));
		}
	}

	private static Mono<ServerResponse> send(StoredResponse response) {
		return ServerResponse.status(response.status())
			.headers((headers) -> response.headers().forEach(headers::addAll))
			.bodyValue(response.body());
	}

}
