package io.github.idempotency.client;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Derives the short, non-reversible hash under which a key may appear in logs and events.
 */
public final class IdempotencyKeys {

	private IdempotencyKeys() {
	}

	/**
	 * Return the first 16 hex digits of the SHA-256 of a key.
	 * @param key the raw key
	 * @return the hash to log in place of the key
	 */
	public static String hash(String key) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(digest, 0, 8);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is not available", ex);
		}
	}

}
