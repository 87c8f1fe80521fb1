package io.github.idempotency.actuate;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

import io.github.idempotency.engine.IdempotentOperationNames;

/**
 * Registers the meters of every declared operation once all singletons, and with them the
 * request mappings, are ready.
 */
class IdempotencyMeterRegistrar implements SmartInitializingSingleton {

	private final IdempotencyMetrics metrics;

	private final ObjectProvider<IdempotentOperationNames> names;

	public IdempotencyMeterRegistrar(IdempotencyMetrics metrics, ObjectProvider<IdempotentOperationNames> names) {
		this.metrics = metrics;
		this.names = names;
	}

	@Override
	public void afterSingletonsInstantiated() {
		this.names.orderedStream()
			.flatMap((source) -> source.operationNames().stream())
			.forEach(this.metrics::register);
	}

}
