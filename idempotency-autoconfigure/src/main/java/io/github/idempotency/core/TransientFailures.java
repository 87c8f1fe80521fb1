package io.github.idempotency.core;

import java.io.IOException;
import java.sql.SQLTransientException;
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
		for (Throwable t = failure; t != null; t = (t.getCause() != t) ? t.getCause() : null) {
			if (t instanceof TransientDataAccessException || t instanceof RecoverableDataAccessException
					|| t instanceof NonTransientDataAccessResourceException
					|| t instanceof CannotCreateTransactionException || t instanceof SQLTransientException
					|| t instanceof TimeoutException || t instanceof IOException) {
				return true;
			}
		}
		return false;
	}

}
