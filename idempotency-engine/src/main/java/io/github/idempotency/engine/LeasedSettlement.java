package io.github.idempotency.engine;

import org.jspecify.annotations.Nullable;

import io.github.idempotency.Outcome;
import io.github.idempotency.store.SequencingIdempotencyStore.SequenceAdvance;

/**
 * The settlements of LEASED claims, which hold their key by a lease: the claim, a release, a
 * refusal and a sequence advance each commit on their own at once, outside any transaction; they
 * differ in when the response is stored.
 */
abstract sealed class LeasedSettlement implements Settlement
		permits ImmediateSettlement, CallerCommitSettlement, AfterCallerCommitSettlement {

	@Override
	public final boolean holdsByTransaction() {
		return false;
	}

	@Override
	public final void release(Execution execution, @Nullable String failure) {
		try {
			execution.releaseClaim(failure);
		}
		finally {
			execution.end(Outcome.RELEASED);
		}
	}

	@Override
	public final void refuse(Execution execution, String failure) {
		try {
			execution.releaseClaim(failure);
		}
		finally {
			execution.end(Outcome.STALE_SEQUENCE);
		}
	}

	@Override
	public final SequenceAdvance advanceSequence(Execution execution, SequenceNumber sequence) {
		return execution.transactions()
			.outside(() -> execution.sequencingStore()
				.advanceSequence(execution.key().tenant(), sequence.scope(), sequence.number(), execution.ttl()));
	}

}
