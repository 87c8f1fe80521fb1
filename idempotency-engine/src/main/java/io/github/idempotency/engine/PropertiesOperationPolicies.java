package io.github.idempotency.engine;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.idempotency.annotation.IdempotencyMode;

/**
 * Operation settings from {@code idempotency.operations.<name>.*}, falling back to
 * {@code idempotency.default-*}.
 */
class PropertiesOperationPolicies implements OperationPolicies {

	private final IdempotencyProperties properties;

	private final Map<String, OperationPolicy> policies = new ConcurrentHashMap<>();

	PropertiesOperationPolicies(IdempotencyProperties properties) {
		this.properties = properties;
		properties.getOperations().keySet().forEach((name) -> policyFor(name, null));
	}

	@Override
	public OperationPolicy policyFor(String operation, IdempotencyMode modeOverride) {
		OperationPolicy policy = this.policies.computeIfAbsent(operation, this::resolve);
		if (modeOverride == null || modeOverride == policy.mode()) {
			return policy;
		}
		return new OperationPolicy(operation, modeOverride, policy.ttl(), policy.lease(), policy.maxWait(),
				policy.archive(), policy.acceptAfter());
	}

	private OperationPolicy resolve(String operation) {
		IdempotencyProperties.Operation settings = this.properties.getOperations()
			.getOrDefault(operation, new IdempotencyProperties.Operation());
		return new OperationPolicy(operation, orDefault(settings.getMode(), this.properties.getDefaultMode()),
				orDefault(settings.getTtl(), this.properties.getDefaultTtl()),
				orDefault(settings.getLease(), this.properties.getDefaultLease()),
				orDefault(settings.getWait(), this.properties.getDefaultWait()), settings.isArchive(),
				settings.getAcceptAfter());
	}

	private static <T> T orDefault(T value, T fallback) {
		return (value != null) ? value : fallback;
	}

}
