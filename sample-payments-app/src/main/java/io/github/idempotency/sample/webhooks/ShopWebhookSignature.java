package io.github.idempotency.sample.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.springframework.stereotype.Component;

/**
 * Signs and verifies shop webhook bodies: the base64 HMAC-SHA256 of the raw body, keyed with
 * {@code sample.webhooks.secret}, as sent in {@code X-Shop-Hmac-Sha256}.
 */
@Component
public class ShopWebhookSignature {

	private static final String ALGORITHM = "HmacSHA256";

	private final SecretKeySpec key;

	ShopWebhookSignature(WebhookProperties properties) {
		this.key = new SecretKeySpec(properties.secret().getBytes(StandardCharsets.UTF_8), ALGORITHM);
	}

	/**
	 * Return the signature of a body.
	 * @param body the raw body
	 * @return the base64 HMAC-SHA256
	 */
	public String sign(byte[] body) {
		return Base64.getEncoder().encodeToString(hmac(body));
	}

	/**
	 * Return whether a signature header matches a body, comparing in constant time.
	 * @param body the raw body
	 * @param header the {@code X-Shop-Hmac-Sha256} header, or {@code null}
	 * @return whether the shop signed this body
	 */
	public boolean matches(byte[] body, String header) {
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
