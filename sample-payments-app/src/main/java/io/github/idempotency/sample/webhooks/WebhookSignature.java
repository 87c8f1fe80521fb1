package io.github.idempotency.sample.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies webhook bodies signed as their senders sign them: the base64 HMAC-SHA256 of the raw
 * body, keyed with the sender's secret.
 */
final class WebhookSignature {

	private static final String ALGORITHM = "HmacSHA256";

	private final SecretKeySpec key;

	WebhookSignature(String secret) {
		this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM);
	}

	/**
	 * Return whether a signature header matches a body, comparing in constant time.
	 * @param body the raw body
	 * @param header the signature header, or {@code null}
	 * @return whether the sender signed this body
	 */
	boolean matches(byte[] body, String header) {
		if (header == null || header.isBlank()) {
			return false;
		}
		byte[] claimed;
		try {
			claimed = Base64.getDecoder().decode(header.trim());
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
		return MessageDigest.isEqual(hmac(body), claimed);
	}

	private byte[] hmac(byte[] body) {
		try {
			Mac mac = Mac.getInstance(ALGORITHM);
			mac.init(this.key);
			return mac.doFinal(body);
		}
		catch (NoSuchAlgorithmException | InvalidKeyException ex) {
			throw new IllegalStateException("HMAC-SHA256 is not available", ex);
		}
	}

}
