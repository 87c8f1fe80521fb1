package io.github.idempotency.jdbc;

import java.util.Locale;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;


/**
 * Explains a start-up that is to create the starter's tables without Flyway on the classpath.
 */
class IdempotencyFlywayMissingFailureAnalyzer extends AbstractFailureAnalyzer<IdempotencyFlywayMissingException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, IdempotencyFlywayMissingException cause) {
		return new FailureAnalysis("idempotency.jdbc.initialize-schema is "
				+ cause.mode().name().toLowerCase(Locale.ROOT) + ", so the starter is to create its tables in the "
				+ "application's " + cause.platform().id() + " database with its Flyway migrations, but Flyway is "
				+ "not on the classpath.",
				"Add org.flywaydb:flyway-core to the application (and org.flywaydb:flyway-database-postgresql for "
						+ "PostgreSQL), or set idempotency.jdbc.initialize-schema=never and create the tables "
						+ "yourself from the shipped script " + cause.platform().schemaScript() + ".",
				cause);
	}

}
