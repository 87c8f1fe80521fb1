package io.github.idempotency.web.servlet;

import org.springframework.beans.factory.SmartInitializingSingleton;

import io.github.idempotency.engine.OperationPolicies;

/**
 * Refuses at start-up an accept-after on an operation whose {@code @Idempotent} handler names
 * ATOMIC mode: its work would run after its request, outside the claim's transaction.
 */
final class AcceptedOperationsCheck implements SmartInitializingSingleton {

	private final HandlerMethodOperationNames names;

	private final OperationPolicies policies;

	AcceptedOperationsCheck(HandlerMethodOperationNames names, OperationPolicies policies) {
		this.names = names;
		this.policies = policies;
	}

	@Override
	public void afterSingletonsInstantiated() {
		// The policy of an accepted operation refuses ATOMIC when it is made.
		this.names.annotatedModes()
			.forEach((operation, modes) -> modes.forEach((mode) -> this.policies.policyFor(operation, mode)));
	}

}
