package io.github.idempotency;

import org.springframework.http.HttpStatus;

/**
 * Thrown by a {@link TenantResolver} when the tenant a request names cannot scope idempotency
 * keys ({@code 400}).
 */
public class InvalidTenantException extends IdempotencyException {

	public InvalidTenantException(String detail) {
		super(HttpStatus.BAD_REQUEST, "invalid-tenant", "Invalid tenant", detail, null, null);
	}

}
