package io.github.idempotency.engine;

import java.io.IOException;
import java.sql.SQLTransientException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.TimeoutException;

import org.springframework.dao.NonTransientDataAccessResourceException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * The failures that are transient whatever the application says: lost or refused database
 * connections, timeouts and I/O errors.
 */
final class TransientFailures {

	private TransientFailures() {
	}

	static boolean isTransient(Throwable failure) {
		for (Throwable t : causeChain(failure)) {
			if (t instanceof TransientDataAccessException || t instanceof RecoverableDataAccessException
					|| t instanceof NonTransientDataAccessResourceException
					|| t instanceof CannotCreateTransactionException || t instanceof SQLTransientException
					|| t instanceof TimeoutException || t instanceof IOException) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Return a failure and its causes, each once, so that a cause chain with a cycle ends.
	 * @param failure the failure, may be {@code null}
	 * @return the failure and its causes
	 */
	static Set<Throwable> causeChain(Throwable failure) {
		Set<Throwable> chain = Collections.newSetFromMap(new IdentityHashMap<>());
		Throwable t = failure;
		while (t != null && chain.add(t)) {
			t = t.getCause();
		}
		return chain;
	}

}
