package io.github.idempotency.engine;

import java.util.Set;
import java.util.TreeSet;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.SequencingIdempotencyStore;

/**
 * Refuses at start-up {@code @IdempotentSequence} operations over a store that keeps no sequence
 * numbers, rather than refusing each of their calls.
 */
class SequenceStoreCheck implements SmartInitializingSingleton {

	private final ObjectProvider<IdempotencyStore> store;

	private final ObjectProvider<IdempotentOperationNames> names;

	SequenceStoreCheck(ObjectProvider<IdempotencyStore> store, ObjectProvider<IdempotentOperationNames> names) {
		this.store = store;
		this.names = names;
	}

	@Override
	public void afterSingletonsInstantiated() {
		IdempotencyStore available = this.store.getIfAvailable();
		if (available == null || available instanceof SequencingIdempotencyStore) {
			return;
		}
		Set<String> sequenced = new TreeSet<>();
		this.names.orderedStream().forEach((source) -> sequenced.addAll(source.sequencedOperations()));
		if (!sequenced.isEmpty()) {
			throw new SequencesUnsupportedException(available.getClass().getName(), sequenced);
		}
	}

}
