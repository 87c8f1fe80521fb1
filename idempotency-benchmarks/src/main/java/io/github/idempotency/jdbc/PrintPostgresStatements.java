package io.github.idempotency.jdbc;

/**
 * Prints the PostgreSQL statements that bench/floor.sh sends with pgbench, as the store builds them
 * (a class of the benchmarks, in the store's package; not published).
 */
public final class PrintPostgresStatements {

	private PrintPostgresStatements() {
	}

	/**
	 * Print each statement after a line {@code -- <name>}.
	 * @param args ignored
	 */
	public static void main(String[] args) {
		IdempotencyStatements statements = IdempotencyStatements.of(DatabasePlatform.POSTGRESQL);
		System.out.println("-- claim");
		System.out.println(statements.claim());
		System.out.println("-- complete");
		System.out.println(statements.complete());
	}

}
