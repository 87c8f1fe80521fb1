package io.github.idempotency.sample.reliability;

/**
 * {@code kill -9} of the packaged application in LEASED mode, with its {@code mariadb} profile and
 * its records in MariaDB, at each point of a payment, then a restart: the key stays claimed until
 * its lease runs out, a retry then takes it over and the payment ends with exactly one charge,
 * thanks to the gateway's idempotency (SPEC 6 and 10).
 */
class MariaDbLeasedProcessCrashIT extends LeasedProcessCrashScenarios {

	MariaDbLeasedProcessCrashIT() {
		super("leasedmaria", null, SampleDatabase::mariadb);
	}

}
