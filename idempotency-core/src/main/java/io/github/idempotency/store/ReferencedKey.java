package io.github.idempotency.store;

import org.jspecify.annotations.Nullable;


/**
 * A key a reference is attached to, as an operator may see it: hashed, never the raw key.
 *
 * @param tenant the tenant
 * @param operation the operation
 * @param keyHash the short hash of the key, as logged
 * @param status the status of its record, or {@code null} if it has none any more (its
 * operation rolled back, or an operator released it)
 */
public record ReferencedKey(String tenant, String operation, String keyHash, @Nullable RecordStatus status) {

}
