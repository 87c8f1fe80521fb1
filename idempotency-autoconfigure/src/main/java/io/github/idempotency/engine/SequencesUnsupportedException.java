package io.github.idempotency.engine;

import java.util.Set;

/**
 * Thrown at start-up when operations order their calls by a sequence number over a store that
 * keeps none.
 */
class SequencesUnsupportedException extends IllegalStateException {

	private final String store;

	private final Set<String> operations;

	SequencesUnsupportedException(String store, Set<String> operations) {
		super("The idempotency store " + store + " keeps no sequence numbers, which @IdempotentSequence operations "
				+ operations + " need");
		this.store = store;
		this.operations = Set.copyOf(operations);
	}

	String store() {
		return this.store;
	}

	Set<String> operations() {
		return this.operations;
	}

}
