package io.github.idempotency;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 helpers, used to log and derive keys without revealing them.
 */
public final class KeyHashes {

	private static final MessageDigest PROTOTYPE = newSha256();

	private KeyHashes() {
	}

	/**
	 * Return the first 12 hex digits of the SHA-256 of the key, safe to log.
	 * @param key the raw key
	 * @return a short hash
	 */
	public static String shortHash(String key) {
		return sha256Hex(key).substring(0, 12);
	}

	/**
	 * Return the SHA-256 of the UTF-8 bytes of the value, in lower-case hex.
	 * @param value the value
	 * @return 64 hex digits
	 */
	public static String sha256Hex(String value) {
		return HexFormat.of().formatHex(sha256().digest(value.getBytes(StandardCharsets.UTF_8)));
	}

	/**
	 * Return a new SHA-256 digest: a copy of one made at start-up, which skips the provider
	 * look-up that every request would otherwise pay.
	 * @return a digest of its own
	 */
	public static MessageDigest sha256() {
		try {
			return (MessageDigest) PROTOTYPE.clone();
		}
		catch (CloneNotSupportedException ex) {
			return newSha256();
		}
	}

	private static MessageDigest newSha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is required by the Java platform", ex);
		}
	}

}
