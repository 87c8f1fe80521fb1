package io.github.idempotency.redis;

import java.util.List;

/**
 * Thrown at start-up when operations ask the Redis store for what it cannot do.
 */
class RedisStoreSettingsException extends IllegalStateException {

	private final List<String> refused;

	RedisStoreSettingsException(List<String> refused) {
		super("The Redis idempotency store cannot honour: " + String.join("; ", refused));
		this.refused = List.copyOf(refused);
	}

	/**
	 * Return each setting refused, naming its operation.
	 * @return the refused settings
	 */
	List<String> refused() {
		return this.refused;
	}

}
