package io.github.idempotency.client;

import java.net.URI;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Logs every attempt at DEBUG with its number, status or error and the hash of its key,
 * never the raw key or the query string.
 */
public class LoggingRetryListener implements RetryListener {

	private static final Log logger = LogFactory.getLog(IdempotencyKeyRetryInterceptor.class);

	@Override
	public void onAttempt(RetryAttempt attempt) {
		if (!logger.isDebugEnabled()) {
			return;
		}
		StringBuilder message = new StringBuilder();
		message.append(attempt.method().name()).append(' ').append(withoutQuery(attempt.uri()));
		message.append(" attempt ").append(attempt.attempt()).append('/').append(attempt.maxAttempts()).append(": ");
		if (attempt.status() != null) {
			message.append(attempt.status().value());
		}
		else if (attempt.exception() != null) {
			message.append(attempt.exception().getClass().getSimpleName());
		}
		if (attempt.nextDelay() != null) {
			message.append(", retrying in ").append(attempt.nextDelay().toMillis()).append(" ms");
		}
		message.append(" [key hash ").append(attempt.keyHash()).append(']');
		logger.debug(message.toString());
	}

	private static String withoutQuery(URI uri) {
		if (uri.getRawPath() == null || uri.getHost() == null) {
			return "<opaque>";
		}
		String port = (uri.getPort() != -1) ? ":" + uri.getPort() : "";
		return uri.getScheme() + "://" + uri.getHost() + port + uri.getRawPath();
	}

}
