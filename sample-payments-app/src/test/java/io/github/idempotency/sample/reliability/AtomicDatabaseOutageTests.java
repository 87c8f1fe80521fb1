package io.github.idempotency.sample.reliability;

/**
 * The database going away under load in ATOMIC mode answers the requests it catches with a clean
 * 503 problem, rolling back their claims with their payments, and retrying every key makes one
 * payment and one charge each (SPEC 5, 6 and 10).
 */
class AtomicDatabaseOutageTests extends DatabaseOutageScenarios {

	AtomicDatabaseOutageTests() {
		super("ATOMIC");
	}

}
