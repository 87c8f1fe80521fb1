package io.github.idempotency.engine;

import org.jspecify.annotations.Nullable;
import org.springframework.transaction.TransactionStatus;

import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.store.SequencingIdempotencyStore.SequenceAdvance;
import io.github.idempotency.store.StoredResponse;

/**
 * How the outcome of a claimed execution is written, chosen once when its key is claimed from the
 * mode and the transaction the call runs in; no other class decides on transaction state.
 */
sealed interface Settlement permits OwnTransactionSettlement, JoinedTransactionSettlement, LeasedSettlement {

	/**
	 * Choose the settlement of a claim.
	 * @param mode the operation's mode
	 * @param transaction the ATOMIC transaction the claim was made in, or {@code null}
	 * @param transactions the application's transactions
	 * @return the settlement
	 */
	static Settlement of(IdempotencyMode mode, @Nullable TransactionStatus transaction,
			IdempotencyTransactions transactions) {
		if (mode == IdempotencyMode.ATOMIC) {
			return transaction.isNewTransaction() ? new OwnTransactionSettlement(transaction)
					: new JoinedTransactionSettlement(transaction);
		}
		if (!transactions.callerTransactionActive()) {
			return ImmediateSettlement.INSTANCE;
		}
		return transactions.storeJoinsCallerTransaction() ? CallerCommitSettlement.INSTANCE
				: AfterCallerCommitSettlement.INSTANCE;
	}

	/**
	 * Return whether the claim holds its key by a lock in a transaction rather than by a lease.
	 * @return {@code true} for ATOMIC
	 */
	boolean holdsByTransaction();

	/**
	 * Store the response, or answer why not.
	 * @param execution the execution
	 * @param response the response
	 * @param failed whether the operation failed finally, so that its own writes must not commit
	 * @return how it ended
	 */
	Completion complete(Execution execution, StoredResponse response, boolean failed);

	/**
	 * Give the key up after a transient failure.
	 * @param execution the execution
	 * @param failure what failed, or {@code null}
	 */
	void release(Execution execution, @Nullable String failure);

	/**
	 * Give the key up for a call refused after its claim, which never runs.
	 * @param execution the execution
	 * @param failure why
	 */
	void refuse(Execution execution, String failure);

	/**
	 * Raise the highest sequence number of the call's scope.
	 * @param execution the execution
	 * @param sequence the call's scope and number
	 * @return what the store answered
	 */
	SequenceAdvance advanceSequence(Execution execution, SequenceNumber sequence);

}
