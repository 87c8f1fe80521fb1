package io.github.idempotency.docs.snippets.webflux;

import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import io.github.idempotency.web.reactive.IdempotentRoutes;

/**
 * A functional endpoint guarded by {@link IdempotentRoutes}. Not a configuration here: it
 * compiles, in a Spring MVC application.
 */
class PaymentRoutes {

	// tag::routes[]
	RouterFunction<ServerResponse> paymentRoutes(IdempotentRoutes idempotentRoutes,
			HandlerFunction<ServerResponse> pay) {
		return RouterFunctions.route()
			.POST("/payments", pay)
			.filter(idempotentRoutes.operation("pay"))
			.build();
	}
	// end::routes[]

}
