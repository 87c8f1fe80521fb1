package io.github.idempotency.engine;

import java.util.function.Supplier;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.DefaultTransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs store calls inside the application's transaction (ATOMIC, or a caller's transaction) or
 * outside any (LEASED), on the application's transaction manager.
 */
class IdempotencyTransactions {

	private static final TransactionDefinition ATOMIC = new DefaultTransactionDefinition(
			TransactionDefinition.PROPAGATION_REQUIRED);

	private final PlatformTransactionManager transactionManager;

	private final DataSource storeDataSource;

	private final TransactionTemplate outside;

	/**
	 * Create an instance.
	 * @param transactionManager the application's transaction manager, on the store's data
	 * source, or {@code null} if it has none (then ATOMIC mode is unavailable)
	 * @param storeDataSource the data source of the store, or {@code null} if the store is not
	 * transactional
	 */
	public IdempotencyTransactions(PlatformTransactionManager transactionManager, DataSource storeDataSource) {
		this.transactionManager = transactionManager;
		this.storeDataSource = storeDataSource;
		this.outside = (transactionManager != null) ? new TransactionTemplate(transactionManager,
				new DefaultTransactionDefinition(TransactionDefinition.PROPAGATION_NOT_SUPPORTED)) : null;
	}

	/**
	 * Run an action outside the current transaction, if any, so that what it writes commits on its
	 * own at once.
	 * @param <T> the result type
	 * @param action the action
	 * @return its result
	 */
	public <T> T outside(Supplier<T> action) {
		if (this.outside == null || !TransactionSynchronizationManager.isActualTransactionActive()) {
			return action.get();
		}
		return this.outside.execute((status) -> action.get());
	}

	/**
	 * Return whether the calling code runs in a transaction whose outcome it can follow: one with
	 * synchronization, so that the result is stored at its commit and released at its rollback.
	 * @return whether a caller's transaction is active
	 */
	public boolean callerTransactionActive() {
		return TransactionSynchronizationManager.isSynchronizationActive()
				&& TransactionSynchronizationManager.isActualTransactionActive();
	}

	/**
	 * Return whether the store's statements take part in the caller's transaction, so that what
	 * they write commits or rolls back with it.
	 * @return whether the store joins the current transaction
	 */
	public boolean storeJoinsCallerTransaction() {
		return this.storeDataSource != null && TransactionSynchronizationManager.hasResource(this.storeDataSource);
	}

	/**
	 * Call back when the caller's transaction has completed, after its commit or rollback.
	 * @param callback receives whether the transaction committed
	 */
	public void afterCallerCompletion(CompletionCallback callback) {
		TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

			@Override
			public void afterCompletion(int status) {
				callback.completed(status == STATUS_COMMITTED);
			}

		});
	}

	/**
	 * Begin, or join, the transaction of an ATOMIC operation.
	 * @return the transaction
	 * @throws IllegalStateException if there is no transaction manager
	 */
	public TransactionStatus begin() {
		if (this.transactionManager == null) {
			throw new IllegalStateException("ATOMIC idempotent operations need a PlatformTransactionManager bean "
					+ "on the idempotency store's DataSource");
		}
		return this.transactionManager.getTransaction(ATOMIC);
	}

	/**
	 * Return whether a claim made in the given transaction saw only what the store has committed:
	 * one made outside any transaction, or in one begun for it, did; one that joined a caller's
	 * transaction may have seen that transaction's own writes, which its rollback would undo.
	 * @param transaction the claim's transaction, or {@code null} for a claim outside any
	 * @return whether the claim saw only committed records
	 */
	public boolean sawOnlyCommitted(@Nullable TransactionStatus transaction) {
		return transaction == null || transaction.isNewTransaction();
	}

	/**
	 * End the transaction of an ATOMIC claim that found its key taken and wrote nothing: one begun
	 * for it rolls back; a caller's transaction it joined goes on untouched.
	 * @param transaction the transaction
	 */
	public void endUnusedClaim(TransactionStatus transaction) {
		if (transaction.isNewTransaction() && !transaction.isCompleted()) {
			try {
				this.transactionManager.rollback(transaction);
			}
			catch (RuntimeException ex) {
				// The claim wrote nothing: a rollback that fails leaves nothing behind.
			}
		}
	}

	public void commit(TransactionStatus transaction) {
		this.transactionManager.commit(transaction);
	}

	/**
	 * Roll back a transaction this class began, or mark a joined one rollback-only, as a
	 * participating {@code @Transactional} method does when it fails.
	 * @param transaction the transaction
	 */
	public void rollback(TransactionStatus transaction) {
		if (!transaction.isCompleted()) {
			this.transactionManager.rollback(transaction);
		}
	}

	/**
	 * Receives the end of a caller's transaction.
	 */
	@FunctionalInterface
	public interface CompletionCallback {

		void completed(boolean committed);

	}

}
