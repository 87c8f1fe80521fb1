package io.github.idempotency.sample.reliability;

/**
 * Concurrent duplicates of {@code POST /payments} in ATOMIC mode, spread over two instances of the
 * sample with its {@code mariadb} profile on one MariaDB database, make one payment and one charge
 * per key: every duplicate waits in the database for the first to commit and replays its answer,
 * so none is refused (SPEC 6 and 10).
 */
class MariaDbAtomicTwoInstanceConcurrencyTests extends AtomicTwoInstanceScenarios {

	MariaDbAtomicTwoInstanceConcurrencyTests() {
		super("twoatomicmaria", SampleDatabase::mariadb);
	}

}
