package io.github.idempotency.engine;

import java.util.List;
import java.util.Map;

import io.github.idempotency.engine.StoreCapabilityCheck.StoreCapability;

/**
 * Thrown at start-up when operations need a capability that the idempotency store does not offer.
 */
class StoreCapabilitiesMissingException extends IllegalStateException {

	private final String store;

	private final Map<StoreCapability, List<String>> missing;

	StoreCapabilitiesMissingException(String store, Map<StoreCapability, List<String>> missing) {
		super("The idempotency store " + store + " lacks what these operations need: " + missing);
		this.store = store;
		this.missing = Map.copyOf(missing);
	}

	String store() {
		return this.store;
	}

	/**
	 * Return what is missing, and why each is needed.
	 * @return the reasons by capability
	 */
	Map<StoreCapability, List<String>> missing() {
		return this.missing;
	}

}
