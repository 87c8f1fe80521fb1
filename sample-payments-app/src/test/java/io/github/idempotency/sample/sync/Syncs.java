package io.github.idempotency.sample.sync;

import java.util.UUID;

/**
 * Request bodies of the sync API.
 */
final class Syncs {

	private Syncs() {
	}

	static String newId(String prefix) {
		return prefix + UUID.randomUUID().toString().substring(0, 8);
	}

	static String product(long baseVersion, String name, long price) {
		return "{\"baseVersion\":" + baseVersion + ",\"name\":\"" + name + "\",\"price\":" + price
				+ ",\"currency\":\"EUR\"}";
	}

	static String user(long baseVersion, String email, String consents) {
		return "{\"baseVersion\":" + baseVersion + ",\"email\":\"" + email + "\",\"displayName\":\"Ada\",\"consents\":"
				+ consents + "}";
	}

}
