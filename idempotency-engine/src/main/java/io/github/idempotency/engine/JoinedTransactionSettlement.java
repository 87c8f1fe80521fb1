package io.github.idempotency.engine;

import org.jspecify.annotations.Nullable;
import org.springframework.transaction.TransactionStatus;

import io.github.idempotency.Outcome;
import io.github.idempotency.store.SequencingIdempotencyStore.SequenceAdvance;
import io.github.idempotency.store.StoredResponse;

/**
 * ATOMIC joined to a caller's transaction: the claim, the writes and the completion commit with the
 * caller and vanish with its rollback; a failure marks the transaction rollback-only, as a
 * participating {@code @Transactional} method does.
 */
final class JoinedTransactionSettlement implements Settlement {

	private final TransactionStatus transaction;

	JoinedTransactionSettlement(TransactionStatus transaction) {
		this.transaction = transaction;
	}

	@Override
	public boolean holdsByTransaction() {
		return true;
	}

	@Override
	public Completion complete(Execution execution, StoredResponse response, boolean failed) {
		IdempotencyTransactions transactions = execution.transactions();
		if (failed) {
			transactions.rollback(this.transaction);
			execution.endWithCaller(Outcome.RELEASED);
			return Completion.ROLLED_BACK;
		}
		boolean stored = false;
		try {
			stored = execution.store().complete(execution.key(), execution.token(), response, execution.ttl());
			if (!stored) {
				throw new IllegalStateException(execution.key() + " lost its claim inside its caller's transaction");
			}
		}
		finally {
			if (!stored) {
				transactions.rollback(this.transaction);
			}
			execution.endWithCaller(Outcome.EXECUTED);
		}
		return Completion.STORED;
	}

	@Override
	public void release(Execution execution, @Nullable String failure) {
		try {
			execution.transactions().rollback(this.transaction);
		}
		finally {
			execution.endWithCaller(Outcome.RELEASED);
		}
	}

	/**
	 * Released in the caller's transaction, which goes on.
	 */
	@Override
	public void refuse(Execution execution, String failure) {
		try {
			execution.store().release(execution.key(), execution.token(), failure);
		}
		finally {
			execution.end(Outcome.STALE_SEQUENCE);
		}
	}

	@Override
	public SequenceAdvance advanceSequence(Execution execution, SequenceNumber sequence) {
		return execution.sequencingStore()
			.advanceSequence(execution.key().tenant(), sequence.scope(), sequence.number(), execution.ttl());
	}

}
