package io.github.idempotency.core;

/**
 * Thrown when the tenant a request names cannot scope idempotency keys.
 */
public class InvalidTenantException extends IdempotencyException {

	public InvalidTenantException(String detail) {
		super(IdempotencyProblem.INVALID_TENANT, detail);
	}

}
