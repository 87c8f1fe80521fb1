package io.github.idempotency.core;

import java.util.function.Supplier;

import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.DefaultTransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs store calls inside the application's transaction (ATOMIC) or outside any (LEASED), on the
 * application's transaction manager.
 */
public class IdempotencyTransactions {

	private static final TransactionDefinition ATOMIC = new DefaultTransactionDefinition(
			TransactionDefinition.PROPAGATION_REQUIRED);

	private final PlatformTransactionManager transactionManager;

	private final TransactionTemplate outside;

	/**
	 * Create an instance.
	 * @param transactionManager the application's transaction manager, on the store's data
	 * source, or {@code null} if it has none (then ATOMIC mode is unavailable)
	 */
	public IdempotencyTransactions(PlatformTransactionManager transactionManager) {
		this.transactionManager = transactionManager;
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

	public void commit(TransactionStatus transaction) {
		this.transactionManager.commit(transaction);
	}

	public void rollback(TransactionStatus transaction) {
		if (!transaction.isCompleted()) {
			this.transactionManager.rollback(transaction);
		}
	}

}
