package io.github.idempotency.jdbc;

/**
 * The statements on H2, on its {@code CURRENT_TIMESTAMP}: the portable ones as they are. A claim
 * that finds the key taken fails with a duplicate key and reads the record next; an archiving
 * take-over and a purge batch take two statements each.
 */
final class H2IdempotencyStatements extends IdempotencyStatements {

	@Override
	String now() {
		return "CURRENT_TIMESTAMP";
	}

	@Override
	String plusMillis(String time, String millis) {
		return "DATEADD(MILLISECOND, " + millis + ", " + time + ")";
	}

	@Override
	String millisBetween(String from, String to) {
		return "DATEDIFF(MILLISECOND, " + from + ", " + to + ")";
	}

}
