package io.github.idempotency.engine;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.SequencingIdempotencyStore;
import io.github.idempotency.store.TransactionalIdempotencyStore;

/**
 * Refuses at start-up operations that need a capability the idempotency store does not offer
 * (sequence numbers, ATOMIC's joined transaction), rather than each of their calls.
 */
class StoreCapabilityCheck implements SmartInitializingSingleton {

	private final ObjectProvider<IdempotencyStore> store;

	private final ObjectProvider<IdempotentOperationNames> names;

	private final ObjectProvider<IdempotencyProperties> properties;

	StoreCapabilityCheck(ObjectProvider<IdempotencyStore> store, ObjectProvider<IdempotentOperationNames> names,
			ObjectProvider<IdempotencyProperties> properties) {
		this.store = store;
		this.names = names;
		this.properties = properties;
	}

	@Override
	public void afterSingletonsInstantiated() {
		IdempotencyStore available = this.store.getIfAvailable();
		if (available == null) {
			return;
		}
		Map<StoreCapability, List<String>> missing = new LinkedHashMap<>();
		if (!(available instanceof SequencingIdempotencyStore)) {
			Set<String> sequenced = new TreeSet<>();
			this.names.orderedStream().forEach((source) -> sequenced.addAll(source.sequencedOperations()));
			sequenced.forEach((name) -> missing.computeIfAbsent(StoreCapability.SEQUENCES, (key) -> new ArrayList<>())
				.add("operation '" + name + "' orders its calls with @IdempotentSequence"));
		}
		if (!(available instanceof TransactionalIdempotencyStore transactional)
				|| !transactional.joinsApplicationTransactions()) {
			List<String> atomic = atomicOperations();
			if (!atomic.isEmpty()) {
				missing.put(StoreCapability.TRANSACTIONS, atomic);
			}
		}
		if (!missing.isEmpty()) {
			throw new StoreCapabilitiesMissingException(available.getClass().getName(), missing);
		}
	}

	private List<String> atomicOperations() {
		Map<String, Set<IdempotencyMode>> declared = new TreeMap<>();
		this.names.orderedStream()
			.forEach((source) -> source.annotatedModes()
				.forEach((name, modes) -> declared.computeIfAbsent(name, (key) -> EnumSet.noneOf(IdempotencyMode.class))
					.addAll(modes)));
		List<String> atomic = new ArrayList<>();
		IdempotencyProperties settings = this.properties.getIfAvailable(IdempotencyProperties::new);
		if (settings.getDefaultMode() == IdempotencyMode.ATOMIC) {
			atomic.add("idempotency.default-mode=atomic makes every operation that names no mode ATOMIC");
		}
		declared.forEach((name, modes) -> {
			if (modes.contains(IdempotencyMode.ATOMIC)) {
				atomic.add("operation '" + name + "' is ATOMIC: its @Idempotent annotation says mode = ATOMIC");
			}
		});
		new TreeMap<>(settings.getOperations()).forEach((name, operation) -> {
			if (operation.getMode() == IdempotencyMode.ATOMIC && declared.getOrDefault(name, Set.of()).isEmpty()) {
				String key = name.matches("[a-z0-9-]+") ? name : "[" + name + "]";
				atomic.add("operation '" + name + "' is ATOMIC: idempotency.operations." + key + ".mode=atomic");
			}
		});
		return atomic;
	}

	/**
	 * A capability of the store SPI that operations may need.
	 */
	enum StoreCapability {

		/**
		 * Sequence numbers, {@link SequencingIdempotencyStore}.
		 */
		SEQUENCES,

		/**
		 * Claims inside the operation's transaction, {@link TransactionalIdempotencyStore}.
		 */
		TRANSACTIONS

	}

}
