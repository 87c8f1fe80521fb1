package io.github.idempotency.jdbc;

import java.util.Locale;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up on a database without the starter's tables, and how to create them.
 */
class IdempotencySchemaMissingFailureAnalyzer extends AbstractFailureAnalyzer<IdempotencySchemaMissingException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, IdempotencySchemaMissingException cause) {
		String database = cause.platform().id();
		return new FailureAnalysis("The idempotency store's table idempotency_record does not exist in the "
				+ "application's " + database + " database (idempotency.jdbc.initialize-schema is "
				+ cause.mode().name().toLowerCase(Locale.ROOT)
				+ "), so every @Idempotent request would fail.",
				"Set idempotency.jdbc.initialize-schema=always (the default) so that the starter creates and "
						+ "upgrades its tables with its own Flyway migrations at start-up, or create them yourself "
						+ "from the shipped script " + cause.platform().schemaScript() + ".",
				cause);
	}

}
