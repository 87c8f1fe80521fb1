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

	@Override
	public String toString() {
		return "IdempotencyKey[tenant=" + this.tenant + ", operation=" + this.operation + ", key#="
				+ KeyHashes.shortHash(this.key) + "]";
	}

}
