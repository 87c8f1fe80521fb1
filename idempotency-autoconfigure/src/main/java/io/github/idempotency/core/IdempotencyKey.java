package io.github.idempotency.core;

import java.util.Objects;

/**
 * The identity of one idempotent request: the key as the client sent it, scoped to a tenant and an
 * operation.
 *
 * @param tenant the tenant (or principal) the key belongs to
 * @param operation the operation name
 * @param key the idempotency key
 */
public record IdempotencyKey(String tenant, String operation, String key) {

	public IdempotencyKey {
		Objects.requireNonNull(tenant, "tenant");
		Objects.requireNonNull(operation, "operation");
		Objects.requireNonNull(key, "key");
	}

	/**
	 * Return a form safe to log: the operation, and hashes of the tenant, which may name a
	 * principal, and of the key.
	 */
	@Override
	public String toString() {
		return "IdempotencyKey[operation=" + this.operation + ", tenant#=" + KeyHashes.shortHash(this.tenant)
				+ ", key#=" + KeyHashes.shortHash(this.key) + "]";
	}

}
