package io.github.idempotency.engine;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.TransactionStatus;

import io.github.idempotency.Outcome;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.SequencingIdempotencyStore.SequenceAdvance;
import io.github.idempotency.store.StoredResponse;

/**
 * ATOMIC in a transaction of its own: the claim, the operation's writes and the completion commit
 * together; a final failure rolls the writes back and is stored on its own; a transaction marked
 * rollback-only stores nothing and frees the key.
 */
final class OwnTransactionSettlement implements Settlement {

	private static final Logger logger = LoggerFactory.getLogger(OwnTransactionSettlement.class);

	private final TransactionStatus transaction;

	OwnTransactionSettlement(TransactionStatus transaction) {
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
			return storeOnItsOwn(execution, response);
		}
		if (this.transaction.isRollbackOnly()) {
			transactions.rollback(this.transaction);
			logger.warn("{}: its transaction was marked rollback-only, so its writes rolled back; nothing is stored "
					+ "and a retry runs it again", execution.key());
			execution.end(Outcome.RELEASED);
			return Completion.ROLLED_BACK;
		}
		Outcome outcome = Outcome.RELEASED;
		try {
			if (!execution.store().complete(execution.key(), execution.token(), response, execution.ttl())) {
				throw new IllegalStateException(execution.key() + " lost its claim inside its own transaction");
			}
			transactions.commit(this.transaction);
			outcome = Outcome.EXECUTED;
			logger.debug("{} committed with status {}", execution.key(), response.status());
			return Completion.STORED;
		}
		finally {
			transactions.rollback(this.transaction);
			execution.end(outcome);
		}
	}

	/**
	 * The operation's transaction rolled back; the final response is stored in a claim of its own,
	 * unless a duplicate that waited on the rolled-back claim got the key first: then the key's
	 * outcome is the duplicate's.
	 */
	private Completion storeOnItsOwn(Execution execution, StoredResponse response) {
		Completion completion = Completion.TAKEN_OVER;
		try {
			completion = execution.transactions().outside(() -> {
				ClaimResult result = execution.store().claim(execution.claim().outsideTransaction());
				if (result instanceof ClaimResult.Claimed claimed) {
					return execution.store().complete(execution.key(), claimed.token(), response, execution.ttl())
							? Completion.STORED : Completion.TAKEN_OVER;
				}
				ClaimResult.Existing existing = (ClaimResult.Existing) result;
				return new Completion.Superseded(
						Decision.of(existing, execution.claim().fingerprint(), existing.leaseRemaining()));
			});
			logger.debug("{} rolled back; its final response {}", execution.key(),
					(completion == Completion.STORED) ? "is stored" : "gave way to a duplicate");
			return completion;
		}
		finally {
			execution.end((completion == Completion.STORED) ? Outcome.EXECUTED : Outcome.TAKEN_OVER);
		}
	}

	@Override
	public void release(Execution execution, @Nullable String failure) {
		try {
			execution.transactions().rollback(this.transaction);
			logger.debug("{} rolled back", execution.key());
		}
		finally {
			execution.end(Outcome.RELEASED);
		}
	}

	@Override
	public void refuse(Execution execution, String failure) {
		try {
			execution.transactions().rollback(this.transaction);
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
