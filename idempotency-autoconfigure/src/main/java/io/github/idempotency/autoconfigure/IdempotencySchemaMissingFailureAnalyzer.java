package io.github.idempotency.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up on a database without the starter's tables, and how to create them.
 */
class IdempotencySchemaMissingFailureAnalyzer extends AbstractFailureAnalyzer<IdempotencySchemaMissingException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, IdempotencySchemaMissingException cause) {
		String scripts = "classpath:db/idempotency/" + cause.platform() + "/V*.sql";
		String create = cause.migrationsEnabled()
				? "Add Flyway to the application (org.flywaydb:flyway-core, and flyway-database-postgresql for "
						+ "PostgreSQL) so that the starter applies its migrations at start-up, or create the tables "
						+ "yourself from " + scripts + "."
				: "Set idempotency.schema.migrate=true so that the starter applies its migrations at start-up "
						+ "(it needs Flyway on the classpath), or create the tables yourself from " + scripts + ".";
		return new FailureAnalysis("The idempotency store's table idempotency_record does not exist in the "
				+ "application's " + cause.platform() + " database, so every @Idempotent request would fail.",
				create, cause);
	}

}
