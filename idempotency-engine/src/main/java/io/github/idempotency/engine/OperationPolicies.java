package io.github.idempotency.engine;

import io.github.idempotency.annotation.IdempotencyMode;

/**
 * Resolves the settings of an operation by name.
 */
@FunctionalInterface
public interface OperationPolicies {

	/**
	 * Return the settings of an operation.
	 * @param operation the operation name
	 * @param modeOverride the mode the annotation asks for, or {@code null}
	 * @return the settings
	 */
	OperationPolicy policyFor(String operation, IdempotencyMode modeOverride);

}
