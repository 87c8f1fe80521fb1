package io.github.idempotency.engine;

import java.util.TreeSet;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains which operations need sequence numbers that the idempotency store does not keep, and
 * what to do about it.
 */
class SequencesUnsupportedFailureAnalyzer extends AbstractFailureAnalyzer<SequencesUnsupportedException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, SequencesUnsupportedException cause) {
		StringBuilder description = new StringBuilder("These operations order their calls with "
				+ "@IdempotentSequence, and the idempotency store, " + cause.store()
				+ ", keeps no sequence numbers:\n");
		new TreeSet<>(cause.operations()).forEach((operation) -> description.append("\n    - ").append(operation));
		return new FailureAnalysis(description.toString(), """
				Use a store that keeps sequence numbers: the starter's JDBC store (PostgreSQL, MariaDB, H2) or its \
				Redis store; or make your own store a SequencingIdempotencyStore \
				(advanceSequence(...)), held to SequencingIdempotencyStoreContractTests; or remove @IdempotentSequence \
				from these methods.""", cause);
	}

}
