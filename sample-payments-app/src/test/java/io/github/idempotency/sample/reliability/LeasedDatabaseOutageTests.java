package io.github.idempotency.sample.reliability;

/**
 * The database going away under load in LEASED mode answers the requests it catches with a clean
 * 503 problem and stores nothing for them; the keys it left in progress free when their lease
 * runs out, and retrying every key makes one payment and one charge each (SPEC 5, 6 and 10).
 */
class LeasedDatabaseOutageTests extends DatabaseOutageScenarios {

	LeasedDatabaseOutageTests() {
		super("LEASED");
	}

}
