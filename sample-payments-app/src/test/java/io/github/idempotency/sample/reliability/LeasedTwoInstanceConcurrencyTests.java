package io.github.idempotency.sample.reliability;

/**
 * Concurrent duplicates of {@code POST /payments} in LEASED mode, spread over two application
 * instances on one PostgreSQL database that also keeps the idempotency records, make one payment
 * and one charge per key and are each answered with the original, a byte-identical replay or an
 * in-progress conflict (SPEC 6 and 10).
 */
class LeasedTwoInstanceConcurrencyTests extends LeasedTwoInstanceScenarios {

	LeasedTwoInstanceConcurrencyTests() {
		super("twoleased", null);
	}

}
