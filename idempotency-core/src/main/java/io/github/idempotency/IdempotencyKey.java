package io.github.idempotency;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
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
		return "IdempotencyKey[operation=" + this.operation + ", tenant#=" + shortHash(this.tenant) + ", key#="
				+ shortHash(this.key) + "]";
	}

	/**
	 * Return the first 12 hex digits of the SHA-256 of a value, safe to log.
	 * @param value the value, such as a raw key
	 * @return a short hash
	 */
	public static String shortHash(String value) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(digest, 0, 6);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is required by the Java platform", ex);
		}
	}

}
