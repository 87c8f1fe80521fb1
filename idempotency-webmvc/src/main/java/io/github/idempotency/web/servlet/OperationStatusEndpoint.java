package io.github.idempotency.web.servlet;

import java.time.Instant;
import java.util.Optional;

import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.RequestPredicates;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import io.github.idempotency.IdempotencyException;
import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.TenantResolver;
import io.github.idempotency.engine.IdempotencyProperties;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.web.HttpProblems;
import io.github.idempotency.web.OperationStatusResponses;

/**
 * Serves the status of an accepted request at the link its {@code 202 Accepted} gave: its state
 * while its work runs, then its stored response. The record is looked up in the tenant (and so
 * the principal) of the client that asks, exactly as a retry of the request would be.
 */
final class OperationStatusEndpoint implements HandlerFunction<ServerResponse> {

	private final IdempotencyStore store;

	private final TenantResolver tenants;

	private final IdempotencyProperties properties;

	private final OperationStatusResponses responses;

	private final HttpProblems problems;

	OperationStatusEndpoint(IdempotencyStore store, TenantResolver tenants, IdempotencyProperties properties,
			OperationStatusResponses responses, HttpProblems problems) {
		this.store = store;
		this.tenants = tenants;
		this.properties = properties;
		this.responses = responses;
		this.problems = problems;
	}

	RouterFunction<ServerResponse> routes() {
		return RouterFunctions.route(RequestPredicates.GET(this.responses.statusPath() + "/{id}"), this);
	}

	@Override
	public ServerResponse handle(ServerRequest request) {
		String path = request.path();
		OperationStatusResponses.Target target = OperationStatusResponses.target(request.pathVariable("id"));
		if (target == null || !OperationStatusResponses.accepts(this.properties, target.operation())) {
			return send(this.responses.notFound(path));
		}
		Optional<IdempotencyRecord> record;
		try {
			record = this.store.find(new IdempotencyKey(this.tenants.resolveTenant(), target.operation(),
					target.key()));
		}
		catch (IdempotencyException ex) {
			return send(this.problems.response(ex, path));
		}
		catch (IllegalArgumentException ex) {
			return send(this.responses.notFound(path));
		}
		return send(record.map((found) -> this.responses.status(found, Instant.now()))
			.orElseGet(() -> this.responses.notFound(path)));
	}

	private static ServerResponse send(StoredResponse response) {
		return ServerResponse.status(response.status())
			.headers((headers) -> response.headers().forEach(headers::addAll))
			.body(response.body());
	}

}
