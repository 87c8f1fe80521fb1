package io.github.idempotency.sample.reliability;

/**
 * Concurrent duplicates of {@code POST /payments} in LEASED mode, spread over two instances of the
 * sample with its {@code mariadb} profile on one MariaDB database that also keeps the idempotency
 * records, make one payment and one charge per key and are each answered with the original, a
 * byte-identical replay or an in-progress conflict (SPEC 6 and 10).
 */
class MariaDbLeasedTwoInstanceConcurrencyTests extends LeasedTwoInstanceScenarios {

	MariaDbLeasedTwoInstanceConcurrencyTests() {
		super("twoleasedmaria", null, SampleDatabase::mariadb);
	}

}
