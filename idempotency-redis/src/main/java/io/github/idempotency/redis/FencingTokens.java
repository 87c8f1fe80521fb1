package io.github.idempotency.redis;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.UUID;

/**
 * Random fencing tokens (version 4 UUIDs) drawn from a generator seeded once, so that drawing one
 * never reads the operating system's entropy source on the calling thread, which may be an event
 * loop.
 */
final class FencingTokens {

	private static final SecureRandom RANDOM = generator();

	private FencingTokens() {
	}

	static String next() {
		byte[] bytes = new byte[16];
		RANDOM.nextBytes(bytes);
		bytes[6] = (byte) ((bytes[6] & 0x0f) | 0x40);
		bytes[8] = (byte) ((bytes[8] & 0x3f) | 0x80);
		long most = 0;
		long least = 0;
		for (int i = 0; i < 8; i++) {
			most = (most << 8) | (bytes[i] & 0xff);
			least = (least << 8) | (bytes[i + 8] & 0xff);
		}
		return new UUID(most, least).toString();
	}

	private static SecureRandom generator() {
		try {
			SecureRandom random = SecureRandom.getInstance("DRBG");
			random.nextBytes(new byte[16]);
			return random;
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("The JVM has no DRBG random number generator", ex);
		}
	}

}
