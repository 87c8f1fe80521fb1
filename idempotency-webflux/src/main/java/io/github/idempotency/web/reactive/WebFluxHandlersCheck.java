package io.github.idempotency.web.reactive;

import java.lang.reflect.Method;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.beans.factory.SmartInitializingSingleton;

import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.engine.OperationPolicies;

/**
 * Refuses at start-up the {@code @Idempotent} WebFlux handlers the reactive entry point cannot
 * guard: those that return neither a {@code Mono} nor a {@code Flux} and do not suspend, whose
 * work would not be deferred until the claim, and those whose operation runs ATOMIC, whose writes
 * could not join the claim's transaction.
 */
final class WebFluxHandlersCheck implements SmartInitializingSingleton {

	private final ReactiveHandlerMethodOperationNames names;

	private final OperationPolicies policies;

	WebFluxHandlersCheck(ReactiveHandlerMethodOperationNames names, OperationPolicies policies) {
		this.names = names;
		this.policies = policies;
	}

	@Override
	public void afterSingletonsInstantiated() {
		Set<String> notReactive = new TreeSet<>();
		Set<String> atomic = new TreeSet<>();
		this.names.forEachOperation((operation, handler) -> {
			Method method = handler.method().getMethod();
			String name = handler.method().getBeanType().getName() + "." + method.getName();
			if (!ReactiveReturnTypes.isReactive(method)) {
				notReactive.add(name);
			}
			IdempotencyMode mode = handler.attributes().mode();
			if (this.policies.policyFor(operation, mode).mode() == IdempotencyMode.ATOMIC) {
				atomic.add(name + " (operation '" + operation + "')");
			}
		});
		if (!notReactive.isEmpty() || !atomic.isEmpty()) {
			throw new WebFluxHandlersUnsupportedException(notReactive, atomic);
		}
	}

	static String atomicRefusal(String operation) {
		return operation + " runs on Spring WebFlux, where ATOMIC mode is not available: its writes could not join "
				+ "the claim's transaction. Use LEASED.";
	}

}
