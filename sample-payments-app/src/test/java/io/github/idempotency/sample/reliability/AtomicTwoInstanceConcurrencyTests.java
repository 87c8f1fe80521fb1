package io.github.idempotency.sample.reliability;

/**
 * Concurrent duplicates of {@code POST /payments} in ATOMIC mode, spread over two application
 * instances on one PostgreSQL database, make one payment and one charge per key: every duplicate
 * waits in the database for the first to commit and replays its answer, so none is refused
 * (SPEC 6 and 10).
 */
class AtomicTwoInstanceConcurrencyTests extends AtomicTwoInstanceScenarios {

	AtomicTwoInstanceConcurrencyTests() {
		super("twoatomic", SampleDatabase::postgres);
	}

}
