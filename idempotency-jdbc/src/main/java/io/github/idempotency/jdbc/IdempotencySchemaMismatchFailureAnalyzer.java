package io.github.idempotency.jdbc;

import java.util.Objects;
import java.util.stream.Collectors;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import io.github.idempotency.jdbc.IdempotencyColumns.Shortfall;

/**
 * Explains a start-up on tables that differ from the starter's schema, with the statements that
 * repair them.
 */
class IdempotencySchemaMismatchFailureAnalyzer extends AbstractFailureAnalyzer<IdempotencySchemaMismatchException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, IdempotencySchemaMismatchException cause) {
		String database = cause.platform().id();
		String shortfalls = cause.shortfalls()
			.stream()
			.map((shortfall) -> "    " + shortfall)
			.collect(Collectors.joining("\n"));
		String repairs = cause.shortfalls()
			.stream()
			.map(Shortfall::repair)
			.filter(Objects::nonNull)
			.map((repair) -> "    " + repair + ";")
			.collect(Collectors.joining("\n"));
		boolean missing = cause.shortfalls().stream().anyMatch((shortfall) -> shortfall.repair() == null);
		StringBuilder action = new StringBuilder("Give the idempotency tables the columns of the starter's schema, "
				+ "as its migrations in classpath:db/idempotency/" + database + " and the shipped script "
				+ cause.platform().schemaScript() + " define them.");
		if (!repairs.isEmpty()) {
			action.append(" These statements repair the columns:\n").append(repairs).append("\n");
		}
		else {
			action.append(" ");
		}
		if (missing) {
			action.append("Create what does not exist from the shipped script, or let the starter migrate its tables "
					+ "(idempotency.jdbc.initialize-schema=always, the default). ");
		}
		action.append("Then keep other schema tools off these tables: Hibernate's ddl-auto changes them only "
				+ "where an entity maps them (the starter's IdempotencyRecordEntity, with "
				+ "idempotency.jdbc.jpa-entity=true, maps them as they are).");
		return new FailureAnalysis("The idempotency store's tables in the application's " + database
				+ " database differ from the schema its statements rely on:\n" + shortfalls
				+ "\nRequests would fail, some after their operation ran (a response longer than its column), "
				+ "and a retry would run the operation again.", action.toString(), cause);
	}

}
